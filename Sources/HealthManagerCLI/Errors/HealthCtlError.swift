import Glibc
public import HealthIPC
public import HealthModel
public import HealthWire

/// Everything that makes a healthctl command fail after its arguments were accepted. Each case
/// carries what the user needs to fix the problem and maps to one exit status. Messages name
/// apps, types, files and paths, never health values.
public enum HealthCtlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The admin socket could not be connected to.
    case brokerUnreachable(socket: String, cause: SystemCallError)
    /// What is at the admin socket may not be this user's healthd (`BrokerSocket`): nothing was sent.
    case brokerNotTrusted(socket: String, refusal: BrokerConnectError)
    /// healthd answered a call with a failure status; `action` says what was being done ("list the apps").
    case brokerFailed(action: String, status: RPCStatus)
    /// healthd's answer could not be decoded.
    case malformedResponse(action: String, detail: String)
    case manifestUnreadable(file: String, reason: String)
    /// The manifest file is not valid JSON, lacks keys, or fails `AppManifest.problems`: every problem is listed.
    case manifestInvalid(file: String, problems: [String])
    /// `--id N` names a request that is not (or no longer) pending.
    case requestNotPending(id: UInt64, pending: [UInt64])
    /// `--allow-read`/`--allow-share` named a type the request does not ask for.
    case typeNotRequested(typeIdentifier: String, access: AccessKind, requestID: UInt64, requested: [String])
    case timedOut(waitingFor: String, seconds: Double)
    /// stdin ended during an interactive answer; nothing was sent for that request.
    case inputEnded(requestID: UInt64)
    /// A passcode could not be read (input ended, too long); `what` names it ("the new passcode").
    case passcodeNotRead(what: String, reason: String)
    /// The passcodes typed cannot be used (empty, or the confirmation differs); nothing was sent.
    case passcodeRejected(reason: String)
    /// `healthctl log verify` found an edited or deleted entry.
    case accessLogDamaged(AccessLogDamage)
    /// `healthctl import` could not read the file (not an export, malformed at a line, unreadable).
    case importUnreadable(reason: String)
    /// `healthctl export` could not write its output; nothing was left at `path`.
    case exportFailed(path: String, reason: String)

    public var exitCode: HealthCtlExitCode {
        switch self {
        case .brokerUnreachable: .unavailable
        case .brokerNotTrusted: .noPermission
        case let .brokerFailed(_, status): Self.exitCode(for: status.code)
        case .malformedResponse: .software
        case .manifestUnreadable: .noInput
        case .manifestInvalid, .requestNotPending, .typeNotRequested: .dataError
        case .timedOut: .timedOut
        case .inputEnded, .passcodeNotRead: .noInput
        case .passcodeRejected: .dataError
        case .accessLogDamaged: .dataError
        case .importUnreadable: .dataError
        case .exportFailed: .cannotCreate
        }
    }

    /// The first line of the message (`ErrorLines` shows it as one line, whatever it quotes).
    public var headline: String {
        if case let .manifestInvalid(file, problems) = self, problems.count > 1 { return "\(file) is not a valid app manifest:" }
        return description
    }

    /// The lines healthctl lists under the headline: a manifest's problems, when there are several.
    public var details: [String] {
        if case let .manifestInvalid(_, problems) = self, problems.count > 1 { return problems }
        return []
    }

    public var description: String {
        switch self {
        case let .brokerUnreachable(socket, cause):
            let reason = String(cString: strerror(cause.errno))
            return "cannot reach healthd at \(socket): \(reason) — \(Self.hint(forConnectErrno: cause.errno))"
        case let .brokerNotTrusted(socket, refusal):
            return "healthctl will not talk to \(socket): \(refusal)"
        case let .brokerFailed(action, status):
            // healthd's own UNAVAILABLE (a lock that could not drain) is its refusal, not a loss.
            if status.isConnectionLoss {
                return "lost healthd while trying to \(action): \(status.message)"
            }
            let detail = status.message.isEmpty ? "\(status.code)" : status.message
            return "healthd could not \(action): \(detail)"
        case let .malformedResponse(action, detail):
            return "healthd's answer to \"\(action)\" could not be read (\(detail)); are healthd and healthctl the same version?"
        case let .manifestUnreadable(file, reason):
            return "cannot read manifest \(file): \(reason)"
        case let .manifestInvalid(file, problems):
            if problems.count == 1 { return "\(file): \(problems[0])" }
            return "\(file) is not a valid app manifest:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        case let .requestNotPending(id, pending):
            let others = pending.isEmpty ? "no requests are pending" : "pending: " + pending.map(String.init).joined(separator: ", ")
            return "request \(id) is not pending (\(others)); see `healthctl requests`"
        case let .typeNotRequested(type, access, requestID, requested):
            let verb = access == .read ? "read" : "share"
            // Named as the user would type them in --allow-read/--allow-share.
            let asked = requested.isEmpty ? "nothing" : requested.map(TypeNameResolver.commandLineName(of:)).joined(separator: ", ")
            return "request \(requestID) does not ask to \(verb) \(TypeNameResolver.commandLineName(of: type)) (it asks to \(verb): \(asked))"
        case let .timedOut(waitingFor, seconds):
            return "no \(waitingFor) arrived within \(NumberText.decimal(seconds, maximumFractionDigits: 1)) seconds"
        case let .inputEnded(requestID):
            return "input ended before request \(requestID) was fully answered; nothing was sent for it"
        case let .passcodeNotRead(what, reason):
            return "could not read \(what): \(reason); nothing was changed"
        case let .passcodeRejected(reason):
            return "\(reason); nothing was changed"
        case let .accessLogDamaged(damage):
            return "the access log is damaged: \(damage)"
        case let .importUnreadable(reason):
            return "cannot import: \(reason)"
        case let .exportFailed(path, reason):
            return "cannot export to \(path): \(reason)"
        }
    }

    private static func hint(forConnectErrno code: Int32) -> String {
        switch code {
        case ENOENT, ECONNREFUSED: "is healthd running? start it with `healthd`"
        case EACCES, EPERM: "the admin socket belongs to the user who runs healthd; run healthctl as that user"
        default: "check --socket or $\(LaunchEnvironment.adminSocketPathVariable)"
        }
    }

    private static func exitCode(for status: StatusCode) -> HealthCtlExitCode {
        switch status {
        case .invalidArgument, .notFound, .alreadyExists, .failedPrecondition, .outOfRange: .dataError
        case .permissionDenied, .unauthenticated: .noPermission
        case .unavailable: .unavailable
        case .deadlineExceeded: .timedOut
        case .internal, .unimplemented, .dataLoss: .software
        default: .failure
        }
    }
}
