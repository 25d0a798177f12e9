import Foundation

/// The broker mode's result table, in Markdown so it can go into Benchmarks/README.md as is.
enum LatencyTable {
    static func markdown(_ results: [CellResult], hidden: Int, goal: Double, control: Bool) -> String {
        let second = control ? "0 hidden (control)" : "\(grouped(hidden)) hidden"
        var lines = [
            "| query kind | read state | 0 hidden | \(second) | difference | goal ≤ \(Int(goal)) % | paired | same answer |",
            "| --- | --- | ---: | ---: | ---: | --- | ---: | --- |",
        ]
        for result in results {
            let verdict = result.state.seesHidden ? "ref." : (abs(result.difference) <= goal ? "PASS" : "FAIL")
            // Where the app may see the hidden data, the answers differ by design.
            let answer = result.state.seesHidden ? "—" : (result.sameAnswer ? "yes" : "NO: \(result.answers.0 ?? "-") / \(result.answers.1 ?? "-")")
            lines.append("| \(result.cell) | \(result.state.label) | \(micros(result.medians.0)) µs | \(micros(result.medians.1)) µs | "
                         + String(format: "%+.1f %%", result.difference) + " | \(verdict) | "
                         + String(format: "%+.1f %%", (result.pairedRatio - 1) * 100) + " | \(answer) |")
        }
        let judged = results.filter { !$0.state.seesHidden }
        let passed = judged.filter { abs($0.difference) <= goal }.count
        lines.append("")
        lines.append("\(passed) of \(judged.count) cells within \(Int(goal)) % (the authorized rows are a reference, not judged); "
                     + "\(judged.filter { !$0.sameAnswer }.count) cells answered differently in the two worlds.")
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
