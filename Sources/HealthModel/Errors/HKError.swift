public import Foundation

/// HealthKit's error, with HealthKit's codes and raw values (HKDefines.h), so ported code can
/// `catch let error as HKError where error.code == .errorAuthorizationDenied`.
///
/// Shaped as Apple's bridged error struct (developer.apple.com/documentation/healthkit/hkerror):
/// `HKError(.errorHealthDataUnavailable)`, `HKError(.errorNoData, userInfo: […])`, `code`,
/// `userInfo` and `localizedDescription`, so health managers and test mocks written for Apple
/// throw and match it unchanged. The SDK and healthd build theirs with `HKError(code, message)`,
/// which puts the message under `NSLocalizedDescriptionKey`.
///
/// The message is meant for the person fixing the problem. It never contains health values:
/// errors travel to untrusted apps and into logs.
public struct HKError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable, CaseIterable {
        case unknownError = 0
        case errorHealthDataUnavailable = 1
        case errorHealthDataRestricted = 2
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorDatabaseInaccessible = 6
        case errorUserCanceled = 7
        case errorAnotherWorkoutSessionStarted = 8
        case errorUserExitedWorkoutSession = 9
        case errorRequiredAuthorizationDenied = 10
        case errorNoData = 11
        case errorWorkoutActivityNotAllowed = 12
        case errorDataSizeExceeded = 13
        case errorBackgroundWorkoutSessionNotAllowed = 14
        case errorNotPermissibleForGuestUserMode = 15

        /// HealthKit's deprecated alias for code 0.
        public static let noError = Code.unknownError
    }

    /// HealthKit's error domain string, `HKErrorDomain`.
    public static let errorDomain = "com.apple.healthkit"

    public let code: Code
    private let info: ErrorUserInfo

    /// Apple's initializer. A description under `NSLocalizedDescriptionKey` becomes the error's
    /// `localizedDescription`; without one it is Foundation's generic text for the code.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        info = ErrorUserInfo(userInfo)
    }

    /// The form the SDK and healthd use: a code and a message for the person fixing the problem.
    public init(_ code: Code, _ message: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// As Apple's `HKError.userInfo`: what the error was made with, the message included.
    public var userInfo: [String: Any] { info.values }

    /// The description under `NSLocalizedDescriptionKey`, or Foundation's generic one ("The
    /// operation could not be completed…") for an error made without it. This is what crosses
    /// the wire to apps.
    public var message: String {
        info.values[NSLocalizedDescriptionKey] as? String
            ?? NSError(domain: Self.errorDomain, code: code.rawValue).localizedDescription
    }

    public var localizedDescription: String { message }
    public var description: String { "HKError(\(code)): \(message)" }

    /// Equal when the codes are and the userInfo dictionaries are (see `ErrorUserInfo` for how
    /// values of `Any` compare). Apple's bridged struct compares its NSErrors, which also means
    /// code and userInfo.
    public static func == (lhs: HKError, rhs: HKError) -> Bool {
        lhs.code == rhs.code && lhs.info == rhs.info
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(info)
    }

    // HealthKit exposes every code as a static member of HKError too (`HKError.errorNoData`).
    public static let unknownError = Code.unknownError
    public static let noError = Code.noError
    public static let errorHealthDataUnavailable = Code.errorHealthDataUnavailable
    public static let errorHealthDataRestricted = Code.errorHealthDataRestricted
    public static let errorInvalidArgument = Code.errorInvalidArgument
    public static let errorAuthorizationDenied = Code.errorAuthorizationDenied
    public static let errorAuthorizationNotDetermined = Code.errorAuthorizationNotDetermined
    public static let errorDatabaseInaccessible = Code.errorDatabaseInaccessible
    public static let errorUserCanceled = Code.errorUserCanceled
    public static let errorAnotherWorkoutSessionStarted = Code.errorAnotherWorkoutSessionStarted
    public static let errorUserExitedWorkoutSession = Code.errorUserExitedWorkoutSession
    public static let errorRequiredAuthorizationDenied = Code.errorRequiredAuthorizationDenied
    public static let errorNoData = Code.errorNoData
    public static let errorWorkoutActivityNotAllowed = Code.errorWorkoutActivityNotAllowed
    public static let errorDataSizeExceeded = Code.errorDataSizeExceeded
    public static let errorBackgroundWorkoutSessionNotAllowed = Code.errorBackgroundWorkoutSessionNotAllowed
    public static let errorNotPermissibleForGuestUserMode = Code.errorNotPermissibleForGuestUserMode
}

/// HealthKit's error domain, `HKErrorDomain`.
public let HKErrorDomain = HKError.errorDomain

/// Bridged as HealthKit's errors are: `(error as NSError).domain == HKErrorDomain`, `.code` is
/// the code's raw value, and the message is the localized description.
extension HKError: CustomNSError {
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
}

/// Lets `error.code == .errorAuthorizationDenied` read as in HealthKit, where codes compare
/// against `HKError.Code` values.
public func ~= (pattern: HKError.Code, error: any Error) -> Bool {
    (error as? HKError)?.code == pattern
}
