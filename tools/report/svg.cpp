// SPDX-License-Identifier: MIT
#include "report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cli {
namespace svg {

namespace {

// Coordinates with two decimals: exact enough for a screen, short in the file.
std::string n2(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// The opening of every chart: id, accessible name, fixed pixel size and viewBox.
std::string open_svg(const std::string &id, const std::string &title, double width, double height, bool wide = false) {
    return "<svg id=\"" + escape(id) + (wide ? "\" class=\"chart wide\"" : "\" class=\"chart\"") +
           " role=\"img\" aria-labelledby=\"" + escape(id) +
           "-title\" width=\"" + n2(width) + "\" height=\"" + n2(height) + "\" viewBox=\"0 0 " + n2(width) + " " +
           n2(height) + "\"><title id=\"" + escape(id) + "-title\">" + escape(title) + "</title>\n";
}

std::string text_at(double x, double y, const std::string &text, const char *anchor, const char *cls,
                    double rotate = 0.0) {
    std::string s = "<text x=\"" + n2(x) + "\" y=\"" + n2(y) + "\" text-anchor=\"" + anchor + "\" class=\"" + cls + "\"";
    if (rotate != 0.0) s += " transform=\"rotate(" + n2(rotate) + " " + n2(x) + " " + n2(y) + ")\"";
    return s + ">" + escape(text) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const char *cls) {
    return "<line x1=\"" + n2(x1) + "\" y1=\"" + n2(y1) + "\" x2=\"" + n2(x2) + "\" y2=\"" + n2(y2) + "\" class=\"" +
           cls + "\"/>\n";
}

// A class or worker name shortened for an axis; the full name stays in the tooltips.
std::string shorten(const std::string &name, std::size_t max_chars) {
    if (name.size() <= max_chars) return name;
    std::size_t cut = max_chars - 1;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    return name.substr(0, cut) + "\xE2\x80\xA6";                                        // U+2026 ellipsis
}

// Plot frame shared by the histogram and the line chart.
struct Frame {
    double width = 640, height = 300, left = 64, right = 20, top = 16, bottom = 52;
    double plot_w() const { return width - left - right; }
    double plot_h() const { return height - top - bottom; }
};

// Axes with ticks and labels; maps data to pixels through the given ranges.
std::string axes(const Frame &f, double x_lo, double x_hi, double y_lo, double y_hi, const std::string &x_label,
                 const std::string &y_label, bool integer_x) {
    std::string s;
    const auto px = [&](double x) { return f.left + (x - x_lo) / (x_hi - x_lo) * f.plot_w(); };
    const auto py = [&](double y) { return f.top + f.plot_h() - (y - y_lo) / (y_hi - y_lo) * f.plot_h(); };
    double step = 0.0;
    for (double t : nice_ticks(y_lo, y_hi, 5, step)) {
        if (t < y_lo - 1e-9 * std::fabs(step) || t > y_hi + 1e-9 * std::fabs(step)) continue;
        s += line(f.left, py(t), f.left + f.plot_w(), py(t), "grid");
        s += text_at(f.left - 6, py(t) + 4, tick_label(t, step), "end", "tick");
    }
    std::vector<double> xt = nice_ticks(x_lo, x_hi, 6, step);
    if (integer_x && step < 1.0) xt = nice_ticks(x_lo, x_hi, static_cast<int>(x_hi - x_lo) + 1, step);
    for (double t : xt) {
        if (t < x_lo - 1e-9 || t > x_hi + 1e-9) continue;
        if (integer_x && std::fabs(t - std::round(t)) > 1e-9) continue;
        s += line(px(t), f.top + f.plot_h(), px(t), f.top + f.plot_h() + 4, "axis");
        s += text_at(px(t), f.top + f.plot_h() + 17, tick_label(t, std::max(step, integer_x ? 1.0 : step)), "middle", "tick");
    }
    s += line(f.left, f.top + f.plot_h(), f.left + f.plot_w(), f.top + f.plot_h(), "axis");
    s += line(f.left, f.top, f.left, f.top + f.plot_h(), "axis");
    s += text_at(f.left + f.plot_w() / 2, f.height - 10, x_label, "middle", "axis-label");
    s += text_at(16, f.top + f.plot_h() / 2, y_label, "middle", "axis-label", -90);
    return s;
}

}  // namespace

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                // Control characters are not allowed in XML 1.0; show them as a space.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out.push_back(' ');
                else out.push_back(c);
        }
    }
    return out;
}

std::vector<double> nice_ticks(double lo, double hi, int target, double &step) {
    if (!(hi > lo)) {
        step = 1.0;
        return {lo};
    }
    const double raw = (hi - lo) / std::max(target, 1);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    step = (f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0) * magnitude;
    std::vector<double> ticks;
    const double first = std::ceil(lo / step - 1e-9) * step;
    for (double t = first; t <= hi + step * 1e-9 && ticks.size() < 100; t += step)
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::string tick_label(double value, double step) {
    int decimals = 0;
    if (step > 0.0 && step < 1.0) decimals = static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 12), value);
    return buf;
}

std::string blue_scale(double t) {
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
    // From #f7fbff to #08306b (the ends of ColorBrewer's "Blues").
    const double from[3] = {247, 251, 255}, to[3] = {8, 48, 107};
    char buf[8];
    int c[3];
    for (int i = 0; i < 3; ++i) c[i] = static_cast<int>(std::lround(from[i] + (to[i] - from[i]) * t));
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
    return buf;
}

std::string histogram(const Histogram &h) {
    Frame f;
    f.width = h.width;
    std::string s = open_svg(h.id, h.title, f.width, f.height, h.wide);
    const double x_lo = h.edges.front(), x_hi = h.edges.back();
    std::size_t top = 1;
    for (std::size_t c : h.counts) top = std::max(top, c);
    double step = 0.0;
    const std::vector<double> yt = nice_ticks(0.0, static_cast<double>(top), 5, step);
    const double y_hi = std::max(static_cast<double>(top), yt.back());
    s += axes(f, x_lo, x_hi, 0.0, y_hi, h.x_label, h.y_label, false);
    const auto px = [&](double x) { return f.left + (x - x_lo) / (x_hi - x_lo) * f.plot_w(); };
    const auto py = [&](double y) { return f.top + f.plot_h() - y / y_hi * f.plot_h(); };
    for (std::size_t b = 0; b < h.counts.size(); ++b) {
        const double x0 = px(h.edges[b]) + 1, x1 = px(h.edges[b + 1]) - 1;
        const double y = py(static_cast<double>(h.counts[b]));
        char tip[160];
        std::snprintf(tip, sizeof tip, "%.2f to %.2f: %zu %s", h.edges[b], h.edges[b + 1], h.counts[b], h.unit.c_str());
        s += "<rect class=\"bar\" x=\"" + n2(x0) + "\" y=\"" + n2(y) + "\" width=\"" + n2(std::max(x1 - x0, 0.5)) +
             "\" height=\"" + n2(f.top + f.plot_h() - y) + "\"><title>" + escape(tip) + "</title></rect>\n";
    }
    for (const Histogram::Marker &m : h.markers) {
        if (m.x < x_lo || m.x > x_hi) continue;
        s += "<g class=\"marker\"><title>" + escape(m.label) + "</title>" + line(px(m.x), f.top, px(m.x), f.top + f.plot_h(), "reference") +
             text_at(px(m.x) + 4, f.top + 12, m.label, "start", "note") + "</g>\n";
    }
    return s + "</svg>\n";
}

std::string heatmap(const Heatmap &h) {
    const std::size_t nr = h.rows.size(), nc = h.cols.size();
    const double cell = std::clamp(static_cast<double>(h.max_size) / static_cast<double>(std::max(nr, nc)), 12.0, 56.0);
    const bool show_text = cell >= 26.0;
    const double left = 110, top = 44, right = 12, bottom = 12;
    const double width = left + cell * static_cast<double>(nc) + right;
    const double height = top + cell * static_cast<double>(nr) + bottom;
    std::string s = open_svg(h.id, h.title, width, height);
    s += text_at(left + cell * static_cast<double>(nc) / 2, 14, h.col_axis, "middle", "axis-label");
    s += text_at(14, top + cell * static_cast<double>(nr) / 2, h.row_axis, "middle", "axis-label", -90);
    const std::size_t label_chars = cell >= 40 ? 8 : cell >= 24 ? 5 : 3;
    for (std::size_t c = 0; c < nc; ++c)
        if (cell >= 16 || nc <= 20)
            s += "<text x=\"" + n2(left + cell * (static_cast<double>(c) + 0.5)) + "\" y=\"" + n2(top - 6) +
                 "\" text-anchor=\"middle\" class=\"tick\"><title>" + escape(h.cols[c]) + "</title>" +
                 escape(shorten(h.cols[c], label_chars)) + "</text>\n";
    for (std::size_t r = 0; r < nr; ++r) {
        const double y = top + cell * static_cast<double>(r);
        if (cell >= 16 || nr <= 20)
            s += "<text x=\"" + n2(left - 6) + "\" y=\"" + n2(y + cell / 2 + 4) +
                 "\" text-anchor=\"end\" class=\"tick\"><title>" + escape(h.rows[r]) + "</title>" +
                 escape(shorten(h.rows[r], 12)) + "</text>\n";
        for (std::size_t c = 0; c < nc; ++c) {
            const std::size_t e = r * nc + c;
            const double x = left + cell * static_cast<double>(c);
            s += "<rect class=\"cell\" x=\"" + n2(x) + "\" y=\"" + n2(y) + "\" width=\"" + n2(cell) + "\" height=\"" +
                 n2(cell) + "\" fill=\"" + blue_scale(h.colour[e]) + "\"><title>" + escape(h.tooltip[e]) +
                 "</title></rect>\n";
            if (show_text && !h.text[e].empty())
                s += "<text x=\"" + n2(x + cell / 2) + "\" y=\"" + n2(y + cell / 2 + 4) +
                     "\" text-anchor=\"middle\" class=\"" + (h.colour[e] > 0.55 ? "cell-text dark" : "cell-text") +
                     "\">" + escape(h.text[e]) + "</text>\n";
        }
    }
    return s + "</svg>\n";
}

std::string line_chart(const LineChart &c) {
    Frame f;
    f.left = 84;  // room for long log-likelihood tick labels
    f.width = c.width;
    std::string s = open_svg(c.id, c.title, f.width, f.height, c.wide);
    const std::size_t n = c.y.size();
    double lo = *std::min_element(c.y.begin(), c.y.end()), hi = *std::max_element(c.y.begin(), c.y.end());
    if (!(hi > lo)) {  // a flat trace: give it some room
        const double pad = std::max(1.0, std::fabs(lo) * 1e-3);
        lo -= pad;
        hi += pad;
    } else {
        const double pad = (hi - lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    const double x_lo = 1.0, x_hi = std::max(2.0, static_cast<double>(n));
    s += axes(f, x_lo, x_hi, lo, hi, c.x_label, c.y_label, true);
    const auto px = [&](double x) { return f.left + (x - x_lo) / (x_hi - x_lo) * f.plot_w(); };
    const auto py = [&](double y) { return f.top + f.plot_h() - (y - lo) / (hi - lo) * f.plot_h(); };
    s += "<polyline class=\"series\" points=\"";
    for (std::size_t i = 0; i < n; ++i) s += (i ? " " : "") + n2(px(static_cast<double>(i + 1))) + "," + n2(py(c.y[i]));
    s += "\"/>\n";
    // Dots with exact values for short traces; long ones would be a smear.
    const std::size_t every = n <= 60 ? 1 : (n + 59) / 60;
    for (std::size_t i = 0; i < n; ++i) {
        if (i % every != 0 && i + 1 != n) continue;
        char tip[96];
        std::snprintf(tip, sizeof tip, "iteration %zu: %.10g", i + 1, c.y[i]);
        s += "<circle class=\"point\" cx=\"" + n2(px(static_cast<double>(i + 1))) + "\" cy=\"" + n2(py(c.y[i])) +
             "\" r=\"2.5\"><title>" + escape(tip) + "</title></circle>\n";
    }
    return s + "</svg>\n";
}

std::string reliability_diagram(const Reliability &r) {
    Frame f;
    f.width = r.width;
    f.height = r.width;
    std::string s = open_svg(r.id, r.title, f.width, f.height);
    s += axes(f, 0.0, 1.0, 0.0, 1.0, "confidence (largest posterior)", "accuracy", false);
    const auto px = [&](double x) { return f.left + x * f.plot_w(); };
    const auto py = [&](double y) { return f.top + f.plot_h() - y * f.plot_h(); };
    s += line(px(0), py(0), px(1), py(1), "reference");
    std::size_t most = 1;
    for (std::size_t n : r.items) most = std::max(most, n);
    for (std::size_t b = 0; b < r.items.size(); ++b) {
        char tip[160];
        std::snprintf(tip, sizeof tip, "%zu items: mean confidence %.3f, accuracy %.3f", r.items[b], r.confidence[b],
                      r.accuracy[b]);
        const double radius = 3.0 + 9.0 * std::sqrt(static_cast<double>(r.items[b]) / static_cast<double>(most));
        s += "<circle class=\"point\" cx=\"" + n2(px(r.confidence[b])) + "\" cy=\"" + n2(py(r.accuracy[b])) +
             "\" r=\"" + n2(radius) + "\" fill-opacity=\"0.6\"><title>" + escape(tip) + "</title></circle>\n";
    }
    return s + "</svg>\n";
}

std::string placeholder(const std::string &id, const std::string &title, const std::string &message, double width,
                        bool wide) {
    const double height = 120;
    std::string s = open_svg(id, title, width, height, wide);
    s += "<rect class=\"empty\" x=\"1\" y=\"1\" width=\"" + n2(width - 2) + "\" height=\"" + n2(height - 2) + "\"/>\n";
    s += text_at(width / 2, height / 2 + 4, message, "middle", "note");
    return s + "</svg>\n";
}

}  // namespace svg
}  // namespace cli
