// SPDX-License-Identifier: MIT
#include "fitting/saved_model.hpp"

#include <string_view>
#include <vector>

#include "common/errors.hpp"

namespace cli {

void write_saved_model(cs_model *model, const ModelNames &names, OutputFile &out) {
    const std::string user = encode_model_names(names);
    check_status(model, cs_set_user_data(model, user.data(), user.size()), "saving the model's names");
    std::size_t n = 0;
    check_status(model, cs_save_buffer(model, nullptr, 0, &n), "saving the model");
    std::vector<char> bytes(n);
    check_status(model, cs_save_buffer(model, bytes.data(), bytes.size(), &n), "saving the model");
    out.write(std::string_view(bytes.data(), n));
}

ModelPtr load_saved_model(const std::string &path, ModelNames &names) {
    ModelPtr model(cs_create());
    if (!model) throw CliError(kExitFit, "out of memory");
    const cs_status status = cs_load(model.get(), path.c_str());
    if (status != CS_OK)
        throw CliError(kExitInput, path + ": " + cs_last_error(model.get()) + " [" + cs_status_string(status) + "]");
    std::size_t n = 0;
    check_status(model.get(), cs_user_data(model.get(), nullptr, 0, &n), "reading the model's names");
    std::string user(n, '\0');
    check_status(model.get(), cs_user_data(model.get(), user.data(), user.size(), &n), "reading the model's names");
    names = decode_model_names(user, path);
    return model;
}

void require_saveable_method(const std::string &method) {
    // The methods cs_save accepts (the library's is_ds_family); mirrored here so that
    // `fit --save` fails at once rather than after a long fit.
    static const char *const kSaveable[] = {"ds", "opt-ds", "one-coin-ds", "class-one-coin-ds", "auto"};
    for (const char *name : kSaveable)
        if (method == name) return;
    throw CliError(kExitUsage, "fit: --save: a '" + method +
                                   "' fit cannot be saved; saved models are of the Dawid-Skene family "
                                   "(ds, opt-ds, one-coin-ds, class-one-coin-ds, auto)");
}

void apply_settings(cs_model *model, const FitSettings &settings) {
    for (const ParamSetting &p : settings.params)
        if (cs_set_param_string(model, p.name.c_str(), p.value.c_str()) != CS_OK)
            throw CliError(kExitUsage, p.option + " " + p.value + ": " + cs_last_error(model));
}

}  // namespace cli
