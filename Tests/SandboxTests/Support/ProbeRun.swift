/// What one run of `sandbox-probe` printed: one `name: result` line per
/// attempt, e.g. `inet_socket: denied (EAFNOSUPPORT)`.
struct ProbeRun: Sendable {
    let exitStatus: Int32
    let standardOutput: String
    let standardError: String
    private let results: [String: String]

    init(exitStatus: Int32, standardOutput: String, standardError: String) {
        self.exitStatus = exitStatus
        self.standardOutput = standardOutput
        self.standardError = standardError
        var results: [String: String] = [:]
        for line in standardOutput.split(separator: "\n") {
            guard let separator = line.firstRange(of: ": ") else { continue }
            results[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
        }
        self.results = results
    }

    /// The result printed for an attempt, nil if the probe never got to it.
    subscript(attempt: String) -> String? {
        results[attempt]
    }

    /// Everything the probe printed, for failure messages.
    var transcript: String {
        "exit status \(exitStatus)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
    }
}
