import Foundation

/// Progress of a long import: on a terminal one line redrawn in place (records/s and ETA); in a
/// log or a pipe a plain line at most every `plainInterval` seconds.
struct ImportProgress {
    static let plainInterval: TimeInterval = 10
    let totalLines: Int
    let interactive: Bool
    private let started = Date()
    private var lastPlain = Date.distantPast

    init(totalLines: Int, interactive: Bool) {
        self.totalLines = max(totalLines, 1)
        self.interactive = interactive
    }

    /// The line to show for having read `records` elements up to line `line`, or nil for now.
    mutating func update(records: Int, line: Int, now: Date = Date()) -> String? {
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let fraction = min(Double(line) / Double(totalLines), 1)
        let rate = Double(records) / elapsed
        let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        let text = "\(Int(fraction * 100))%  \(records) records  \(Int(rate)) records/s  ETA \(Self.duration(eta))"
        if interactive { return "\r" + Self.bar(fraction) + " " + text + "\u{1B}[K" }
        guard now.timeIntervalSince(lastPlain) >= Self.plainInterval else { return nil }
        lastPlain = now
        return "import: " + text + "\n"
    }

    static func bar(_ fraction: Double, width: Int = 24) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? "\(total / 3600)h\(total % 3600 / 60)m" : total >= 60 ? "\(total / 60)m\(total % 60)s" : "\(total)s"
    }
}
