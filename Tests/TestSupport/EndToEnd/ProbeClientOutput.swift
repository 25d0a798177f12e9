import Synchronization

/// What a command-driven `leak-probe-client` printed, indexed line by line as it arrives: each
/// command's answer (the lines from `call N …` to `done N`, without `watch` lines) and each open
/// stream's `watch NAME …` lines, by name. A session's waits look one of them up every few
/// milliseconds; finding it by rescanning everything printed so far made each look cost as much
/// as the whole transcript (thousands of lines in a leak-matrix session), and the tests' own
/// process spent whole cores on it.
final class ProbeClientOutput: Sendable {
    private struct Lines {
        /// The last lines printed, for failure messages.
        var recent: [String] = []
        /// The command whose `call N` line came last and whose `done N` has not yet.
        var current: (number: Int, answer: [String])?
        /// Answers of finished commands, by command number (taken once by `answer(to:)`).
        var answers: [Int: [String]] = [:]
        /// Each stream's `watch NAME …` lines, without `watch NAME `.
        var streams: [String: [String]] = [:]
    }

    private let lines = Mutex(Lines())
    private let isClosed = Mutex(false)
    private static let recentCount = 5

    /// Files one complete line (without its newline).
    func append(_ line: String) {
        lines.withLock { lines in
            lines.recent.append(line)
            if lines.recent.count > 2 * Self.recentCount { lines.recent.removeFirst(lines.recent.count - Self.recentCount) }
            if line.hasPrefix("watch ") {
                // `watch NAME rest`: a stream's name is one word (the client's `open NAME …`).
                let afterPrefix = line.dropFirst("watch ".count)
                if let space = afterPrefix.firstIndex(of: " ") {
                    lines.streams[String(afterPrefix[..<space]), default: []].append(String(afterPrefix[afterPrefix.index(after: space)...]))
                }
                return
            }
            if line.hasPrefix("call "), let number = Self.number(in: line, after: "call ") {
                lines.current = (number, [])
            } else if line.hasPrefix("done "), let number = Int(line.dropFirst("done ".count)) {
                if let current = lines.current, current.number == number {
                    lines.answers[number] = current.answer
                    lines.current = nil
                }
            } else if lines.current != nil {
                lines.current?.answer.append(line)
            }
        }
    }

    /// The client's output ended.
    func close() { isClosed.withLock { $0 = true } }
    var closed: Bool { isClosed.withLock { $0 } }

    /// Command `number`'s answer once its `done` was printed.
    func answer(to number: Int) -> [String]? {
        lines.withLock { $0.answers[number] }
    }

    /// Stream `name`'s lines so far.
    func watched(_ name: String) -> [String] {
        lines.withLock { $0.streams[name] ?? [] }
    }

    /// The last few lines printed, for a failure's message.
    var last: [String] {
        lines.withLock { Array($0.recent.suffix(Self.recentCount)) }
    }

    private static func number(in line: String, after prefix: String) -> Int? {
        let rest = line.dropFirst(prefix.count)
        return Int(rest.prefix { $0 != " " })
    }
}
