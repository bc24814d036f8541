// SPDX-License-Identifier: MIT
// The parameter table behind cs_set_int / cs_set_double / cs_set_param_string:
// one row per cs_param with its name, type, range and default (documented in
// crowdspec.h), plus the names of enumerated values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fit_options.hpp"
#include "crowdspec/crowdspec.h"

namespace cs {

struct EnumName {
    const char *name;
    int64_t value;
};

struct ParamSpec {
    int32_t id;
    const char *name;
    bool integer;
    double lower;
    double upper;
    double default_value;
    std::vector<EnumName> names;  // accepted value names, for enumerated parameters
};

/// All parameters, in cs_param_at() order.
const std::vector<ParamSpec> &param_table();
/// The row of a parameter id, or nullptr.
const ParamSpec *find_param(int32_t id);
/// The row of a parameter name, or nullptr.
const ParamSpec *find_param(const std::string &name);

/// Current parameter values of one handle. Integer parameters are kept exactly as
/// int64 (a seed may exceed 2^53); doubles as double.
class Params {
public:
    Params();

    /// Set a value after range checking; throws cs::Error with a message otherwise.
    void set_int(int32_t id, int64_t value);
    void set_double(int32_t id, double value);
    /// Parse text ("opt-ds", "1e-8", "estimated") and set.
    void set_string(const std::string &name, const std::string &value);

    int64_t get_int(int32_t id) const;
    double get_double(int32_t id) const;

    /// The options an algorithm reads, gathered from the current values.
    FitOptions fit_options() const;

private:
    const ParamSpec &spec(int32_t id) const;
    std::size_t index(int32_t id) const;

    std::vector<int64_t> ints_;
    std::vector<double> doubles_;
};

}  // namespace cs
