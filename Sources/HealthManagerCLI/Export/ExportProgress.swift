import Foundation

/// Progress of a long export: on a terminal one line redrawn in place (types done, samples,
/// samples/s); in a log or a pipe a plain line at most every `plainInterval` seconds.
struct ExportProgress {
    static let plainInterval: TimeInterval = 10
    let interactive: Bool
    private let started = Date()
    private var lastPlain = Date()

    init(interactive: Bool) {
        self.interactive = interactive
    }

    mutating func update(typesDone: Int, typesTotal: Int, samples: Int, now: Date = Date()) -> String? {
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let fraction = typesTotal > 0 ? min(Double(typesDone) / Double(typesTotal), 1) : 1
        let text = "types \(typesDone)/\(typesTotal)  \(samples) samples  \(Int(Double(samples) / elapsed)) samples/s"
        if interactive { return "\r" + ImportProgress.bar(fraction) + " " + text + "\u{1B}[K" }
        guard now.timeIntervalSince(lastPlain) >= Self.plainInterval else { return nil }
        lastPlain = now
        return "export: " + text + "\n"
    }
}
