public import Foundation

/// Running the scripted test app (`e2e-client`) as a real, separate, confined process.
extension BrokerProcess {
    public static let clientExecutable = Products.path("e2e-client")

    /// `health-sandbox run APP -- e2e-client ARGS…`, to completion.
    public func runApp(_ appID: String, _ arguments: [String], timeout: TimeInterval = 60) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("health-sandbox"),
                                 ["run", appID, "--socket", adminSocket, "--", Self.clientExecutable] + arguments,
                                 timeout: timeout)
    }

    /// Installs an app whose executable is the scripted test app.
    @discardableResult
    public func installClient(_ appID: String, read: Bool = true, share: Bool = true) async throws -> String {
        try await install(appID: appID, executable: Self.clientExecutable, read: read, share: share)
    }

    /// `healthctl apps allow-direct`: lets `appID` (usually this test process) connect to the app
    /// socket by itself, identified by its executable — the weaker mode, off by default.
    public func allowDirect(_ appID: String) async throws {
        let result = try await healthctl(["apps", "allow-direct", appID])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }

    /// Sets grants with `healthctl grant`/`revoke`, failing the test on error.
    public func set(_ appID: String, _ access: String, _ type: String, allowed: Bool) async throws {
        let result = try await healthctl([allowed ? "grant" : "revoke", appID, access, type])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }
}

/// The scripted app's output, parsed.
extension ProcessResult {
    /// The last `ok …` value, or nil if the app reported an error.
    public var okValue: String? {
        lines.last { $0.hasPrefix("ok") }.map { String($0.dropFirst(3)) }
    }

    /// The HealthKit error code of an `error CODE message` line.
    public var errorCode: Int? {
        lines.last { $0.hasPrefix("error ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// `sample UUID START END VALUE SOURCE` lines, as (start, end, value, source).
    public var samples: [(start: Int, end: Int, value: Double, source: String)] {
        lines.filter { $0.hasPrefix("sample ") }.map { line in
            let f = line.split(separator: " ").map(String.init)
            return (Int(f[2])!, Int(f[3])!, Double(f[4])!, f[5])
        }
    }
}
