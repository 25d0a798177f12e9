import Foundation

/// The broker mode's result table, in Markdown so it can go into Benchmarks/README.md as is.
enum LatencyTable {
    static func markdown(_ results: [CellResult], hidden: Int, goal: Double, control: Bool) -> String {
        let second = control ? "0 hidden (control)" : "\(grouped(hidden)) hidden"
        var lines = [
            "| query kind | read state | 0 hidden | \(second) | difference | goal ≤ \(Int(goal)) % | paired | healthd CPU, 0 / N hidden | CPU difference | same answer |",
            "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |",
        ]
        for result in results {
            let verdict = result.measuredNothing ? "BROKEN"
                : result.state.seesHidden ? "ref." : (abs(result.difference) <= goal ? "PASS" : "FAIL")
            // Where the app may see the hidden data, the answers differ by design.
            let answer = result.state.seesHidden ? "—" : (result.sameAnswer ? "yes" : "NO: \(result.answers.0 ?? "-") / \(result.answers.1 ?? "-")")
            lines.append("| \(result.cell) | \(result.state.label) | \(micros(result.medians.0)) µs | \(micros(result.medians.1)) µs | "
                         + String(format: "%+.1f %%", result.difference) + " | \(verdict) | "
                         + String(format: "%+.1f %%", (result.pairedRatio - 1) * 100)
                         + " | \(micros(result.cpu.0)) / \(micros(result.cpu.1)) µs | " + String(format: "%+.1f %%", result.cpuDifference)
                         + " | \(answer) |")
        }
        let judged = results.filter { !$0.state.seesHidden }
        let passed = judged.filter { abs($0.difference) <= goal && !$0.measuredNothing }.count
        lines.append("")
        let pairedWithin = judged.filter { abs($0.pairedRatio - 1) * 100 <= goal }.count
        let cpuWithin = judged.filter { abs($0.cpuDifference) <= goal }.count
        let allOver = judged.filter { abs($0.difference) > goal && abs($0.pairedRatio - 1) * 100 > goal && abs($0.cpuDifference) > goal }
        lines.append("\(passed) of \(judged.count) cells within \(Int(goal)) % by the medians (the authorized rows are a reference, "
                     + "not judged); \(pairedWithin) by the paired ratio; \(cpuWithin) by healthd's CPU time. "
                     + "\(judged.filter { !$0.sameAnswer }.count) cells answered differently in the two worlds.")
        let broken = results.filter(\.measuredNothing)
        if !broken.isEmpty {
            lines.append("BROKEN: \(broken.count) cells measured nothing (their calls were refused before any query ran): "
                         + broken.map { "\($0.cell) (\($0.state.label))" }.joined(separator: "; ") + ".")
        }
        lines.append("Over \(Int(goal)) % by all three measures: "
                     + (allOver.isEmpty ? "none." : allOver.map { "\($0.cell) (\($0.state.label))" }.joined(separator: "; ") + "."))
        return lines.joined(separator: "\n")
    }

    /// "1,234.5": one decimal, thousands separated.
    static func micros(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return grouped(tenths / 10) + "." + String(tenths % 10)
    }

    /// "1,000,000" (no locale: the output goes into the README as is).
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
