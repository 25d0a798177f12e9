public import HealthModel

/// gRPC's canonical status codes (grpc/doc/statuscodes.md), the `code` of a `Status` on the wire.
public enum StatusCode: UInt32, Sendable, CaseIterable {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16
}

/// How a call ended: a gRPC status plus, for failures, the HealthKit error code the SDK raises.
public struct RPCStatus: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: StatusCode
    public var message: String
    public var healthKitCode: HKError.Code?

    public init(_ code: StatusCode, _ message: String = "", healthKitCode: HKError.Code? = nil) {
        self.code = code
        self.message = message
        self.healthKitCode = healthKitCode
    }

    public static let ok = RPCStatus(.ok)

    /// The status a broker sends for a HealthKit error, with the gRPC code that fits it best.
    public init(_ error: HKError) {
        let code: StatusCode
        switch error.code {
        case .errorInvalidArgument, .errorDataSizeExceeded: code = .invalidArgument
        case .errorAuthorizationDenied, .errorAuthorizationNotDetermined,
             .errorRequiredAuthorizationDenied: code = .permissionDenied
        case .errorDatabaseInaccessible, .errorHealthDataUnavailable: code = .unavailable
        case .errorUserCanceled: code = .cancelled
        case .errorNoData: code = .notFound
        default: code = .failedPrecondition
        }
        self.init(code, error.message, healthKitCode: error.code)
    }

    /// The HealthKit error an SDK caller sees for this status.
    public var asHKError: HKError {
        if let healthKitCode { return HKError(healthKitCode, message) }
        switch code {
        case .unavailable: return HKError(.errorHealthDataUnavailable, message)
        case .invalidArgument: return HKError(.errorInvalidArgument, message)
        case .cancelled: return HKError(.errorUserCanceled, message)
        default: return HKError(.unknownError, "\(code): \(message)")
        }
    }

    public var description: String {
        message.isEmpty ? "\(code)" : "\(code): \(message)"
    }

    /// How a client's own statuses begin when its connection to healthd fails (`RPCClient`
    /// makes them; healthd never sends them).
    public static let connectionLossMessages = ["cannot send to healthd: ", "connection to healthd failed: ",
                                                "healthd closed the connection"]

    /// The connection itself failed — not an UNAVAILABLE healthd sent, such as a lock whose drain
    /// did not finish or the store being locked (those carry a HealthKit code, or other words).
    public var isConnectionLoss: Bool {
        code == .unavailable && healthKitCode == nil && Self.connectionLossMessages.contains { message.hasPrefix($0) }
    }
}
