// SPDX-License-Identifier: MIT
// Inline SVG charts for `crowdspec report`, written by hand (no libraries): a
// histogram, a heatmap and a line chart. Every chart is one <svg> element with an id,
// role="img" and a <title>, and every mark carries its own <title> (a tooltip with the
// exact number), so the report is readable without a script and testable from its DOM.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cli {
namespace svg {

/// Escapes text for XML/HTML content and attribute values.
std::string escape(std::string_view text);

/// "Nice" axis ticks covering [lo, hi] (steps of 1, 2 or 5 times a power of ten),
/// about `target` of them. `step` receives the spacing.
std::vector<double> nice_ticks(double lo, double hi, int target, double &step);

/// A tick label with just enough decimals for `step` (e.g. 0.25, 1500, -17200).
std::string tick_label(double value, double step);

/// Sequential colour for t in [0, 1], white to dark blue (#rrggbb).
std::string blue_scale(double t);

struct Histogram {
    std::string id, title, x_label, y_label;
    std::vector<double> edges;        ///< bins+1 ascending bin edges
    std::vector<std::size_t> counts;  ///< per bin
    std::string unit = "workers";     ///< what is counted (tooltips)
    struct Marker {
        double x;
        std::string label;
    };
    std::vector<Marker> markers;      ///< dashed vertical reference lines
    double width = 640;               ///< drawing width in pixels
    bool wide = false;                ///< class "chart wide": stretched to the page's width by CSS
};
std::string histogram(const Histogram &h);

struct Heatmap {
    std::string id, title, row_axis, col_axis;
    std::vector<std::string> rows, cols;  ///< row and column names
    std::vector<double> colour;           ///< rows x cols, in [0, 1]: the cell colours
    std::vector<std::string> text;        ///< rows x cols: shown in big enough cells
    std::vector<std::string> tooltip;     ///< rows x cols
    int max_size = 320;                   ///< width and height of the grid, pixels
};
std::string heatmap(const Heatmap &h);

struct LineChart {
    std::string id, title, x_label, y_label;
    std::vector<double> y;  ///< y[i] is the value at x = i + 1
    double width = 640;     ///< drawing width in pixels
    bool wide = false;      ///< class "chart wide": stretched to the page's width by CSS
};
std::string line_chart(const LineChart &c);

/// A reliability diagram: for each confidence bin with items, a point at (mean
/// confidence, accuracy) whose area grows with its items, over the diagonal of perfect
/// calibration; both axes 0..1.
struct Reliability {
    std::string id, title;
    std::vector<double> confidence, accuracy;  ///< per non-empty bin
    std::vector<std::size_t> items;            ///< per non-empty bin
    double width = 420;
};
std::string reliability_diagram(const Reliability &r);
/// An empty chart frame with a message, for data that has no such chart (e.g. the
/// log-likelihood of majority vote): the chart is still there, saying why it is empty.
/// `wide`: class "chart wide" and a drawing `width` pixels wide, as for the charts it
/// stands in for.
std::string placeholder(const std::string &id, const std::string &title, const std::string &message,
                        double width = 640, bool wide = false);

}  // namespace svg
}  // namespace cli
