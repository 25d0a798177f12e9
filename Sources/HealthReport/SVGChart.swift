import Foundation

/// Small inline SVG charts, drawn here rather than by a script so the report opens anywhere with
/// nothing to load: daily bars, daily ranges (a bar from lowest to highest with the average
/// marked) and a line. Every chart is one `<svg class="chart" data-chart=NAME>` with a `<title>`,
/// y-axis labels at 0, half and the top, and the first and last day under the x axis. Text is
/// escaped; numbers are formatted here.
enum SVGChart {
    static let width = 720.0
    static let height = 240.0
    private static let left = 56.0, right = 12.0, top = 12.0, bottom = 28.0
    private static var plotWidth: Double { width - left - right }
    private static var plotHeight: Double { height - top - bottom }

    static func bars(_ name: String, title: String, _ values: [ReportData.DailyValue], colour: String) -> String {
        let top = niceCeiling(values.map(\.value).max() ?? 0)
        let slot = plotWidth / Double(max(values.count, 1))
        let bars = values.enumerated().map { index, point in
            let barHeight = plotHeight * ChartNumber.fraction(point.value, low: 0, high: top)
            return rect(x: left + Double(index) * slot + slot * 0.1, y: y(point.value, top), width: slot * 0.8, height: barHeight,
                        className: "bar", fill: colour, label: "\(point.day): \(number(point.value))")
        }
        return svg(name, title: title, top: top, days: values.map(\.day), body: bars.joined())
    }

    static func ranges(_ name: String, title: String, _ values: [ReportData.DailyRange], colour: String) -> String {
        let top = niceCeiling(values.map(\.maximum).max() ?? 0)
        let slot = plotWidth / Double(max(values.count, 1))
        let body = values.enumerated().map { index, day in
            let x = left + Double(index) * slot
            let span = rect(x: x + slot * 0.3, y: y(day.maximum, top), width: slot * 0.4,
                            height: max(1, plotHeight * (ChartNumber.fraction(day.maximum, low: 0, high: top)
                                                         - ChartNumber.fraction(day.minimum, low: 0, high: top))),
                            className: "range", fill: colour,
                            label: "\(day.day): \(number(day.minimum))–\(number(day.maximum)), average \(number(day.average))")
            let mark = "<circle class=\"average\" cx=\"\(format(x + slot / 2))\" cy=\"\(format(y(day.average, top)))\" r=\"3\" fill=\"#222\"/>"
            return span + mark
        }
        return svg(name, title: title, top: top, days: values.map(\.day), body: body.joined())
    }

    static func line(_ name: String, title: String, _ values: [ReportData.DailyValue], colour: String) -> String {
        let low = values.map(\.value).min() ?? 0
        let top = niceCeiling(values.map(\.value).max() ?? 0)
        // A weight chart from zero is a flat line: the axis starts a little under the lowest value.
        let floor = max(0, (low - (top / 2 - low / 2) * 0.4).rounded(.down))
        let step = values.count > 1 ? plotWidth / Double(values.count - 1) : 0
        let points = values.enumerated().map { index, point in
            "\(format(left + Double(index) * step)),\(format(yBetween(point.value, floor, top)))"
        }
        let dots = values.enumerated().map { index, point in
            "<circle class=\"point\" cx=\"\(format(left + Double(index) * step))\" cy=\"\(format(yBetween(point.value, floor, top)))\" r=\"3\" fill=\"\(colour)\"><title>\(escaped(point.day)): \(number(point.value))</title></circle>"
        }
        let polyline = "<polyline class=\"line\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>"
        return svg(name, title: title, top: top, bottom: floor, days: values.map(\.day), body: polyline + dots.joined())
    }

    // MARK: - Parts

    private static func svg(_ name: String, title: String, top: Double, bottom: Double = 0, days: [String], body: String) -> String {
        var axis = "<line class=\"axis\" x1=\"\(format(left))\" y1=\"\(format(Self.top + plotHeight))\" x2=\"\(format(width - right))\" y2=\"\(format(Self.top + plotHeight))\" stroke=\"#888\"/>"
        for fraction in [0.0, 0.5, 1.0] {
            let value = bottom + (top - bottom) * fraction
            let yPosition = Self.top + plotHeight * (1 - fraction)
            axis += "<text class=\"tick\" x=\"\(format(left - 6))\" y=\"\(format(yPosition + 4))\" text-anchor=\"end\" font-size=\"11\">\(number(value))</text>"
        }
        if let first = days.first, let last = days.last {
            axis += "<text class=\"day\" x=\"\(format(left))\" y=\"\(format(height - 8))\" font-size=\"11\">\(escaped(first))</text>"
            axis += "<text class=\"day\" x=\"\(format(width - right))\" y=\"\(format(height - 8))\" text-anchor=\"end\" font-size=\"11\">\(escaped(last))</text>"
        }
        return "<svg class=\"chart\" data-chart=\"\(escaped(name))\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(format(width)) \(format(height))\" role=\"img\">"
            + "<title>\(escaped(title))</title>" + axis + body + "</svg>"
    }

    private static func rect(x: Double, y: Double, width: Double, height: Double, className: String, fill: String, label: String) -> String {
        "<rect class=\"\(className)\" x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(width))\" height=\"\(format(height))\" fill=\"\(fill)\"><title>\(escaped(label))</title></rect>"
    }

    private static func y(_ value: Double, _ top: Double) -> Double {
        Self.top + plotHeight * (1 - ChartNumber.fraction(value, low: 0, high: top))
    }

    private static func yBetween(_ value: Double, _ bottom: Double, _ top: Double) -> Double {
        top > bottom ? Self.top + plotHeight * (1 - ChartNumber.fraction(value, low: bottom, high: top)) : Self.top + plotHeight / 2
    }

    /// The axis top: the maximum rounded up to 1, 2 or 5 times a power of ten (at least 1).
    static func niceCeiling(_ value: Double) -> Double {
        guard value.isFinite, value > 1 else { return 1 }
        let power = pow(10, (log10(value)).rounded(.down))
        for step in [1.0, 2, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }

    static func number(_ value: Double) -> String { ChartNumber.label(value) }

    private static func format(_ value: Double) -> String { ChartNumber.coordinate(value) }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
