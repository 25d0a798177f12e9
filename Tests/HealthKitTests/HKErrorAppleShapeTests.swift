import Foundation
import Testing
import HealthKit

/// `HKError` as Apple's bridged error struct (developer.apple.com/documentation/healthkit/hkerror):
/// code written for Apple's SDK — a health manager that throws `HKError(.errorHealthDataUnavailable)`,
/// a mock that fails with `HKError(.errorNoData, userInfo: …)`, a `catch … where error.code == …`
/// — compiles here (this file imports only HealthKit, as an app does) and behaves as on Apple.
@Suite(.timeLimit(.minutes(10))) struct HKErrorAppleShapeTests {
    /// The usual health-manager guard, unchanged from Apple-targeted code.
    struct HealthManager {
        let available: Bool
        func requestAccess() throws {
            guard available else { throw HKError(.errorHealthDataUnavailable) }
        }
    }

    @Test func anErrorMadeFromACodeIsThrownAndCaughtByItsCode() {
        var caught: HKError.Code?
        do {
            try HealthManager(available: false).requestAccess()
        } catch let error as HKError where error.code == .errorAuthorizationDenied {
            caught = .errorAuthorizationDenied
        } catch let error as HKError where error.code == .errorHealthDataUnavailable {
            caught = error.code
            #expect(error.userInfo.isEmpty)
            // No description given: Foundation's generic one for the domain and code, as NSError has.
            #expect(error.localizedDescription
                    == NSError(domain: HKErrorDomain, code: 1).localizedDescription)
            #expect(!error.localizedDescription.isEmpty)
        } catch {
            Issue.record("not an HKError: \(error)")
        }
        #expect(caught == .errorHealthDataUnavailable)
    }

    @Test func userInfoIsKeptAndBridgedToNSError() {
        let error = HKError(.errorNoData, userInfo: [NSLocalizedDescriptionKey: "No steps today",
                                                     "retryAfter": 30])
        #expect(error.code == .errorNoData)
        #expect(error.localizedDescription == "No steps today")
        #expect(error.userInfo["retryAfter"] as? Int == 30)
        let bridged = error as NSError
        #expect(bridged.domain == HKErrorDomain)
        #expect(bridged.code == HKError.Code.errorNoData.rawValue)
        #expect(bridged.localizedDescription == "No steps today")
        #expect(bridged.userInfo["retryAfter"] as? Int == 30)
    }

    /// The SDK's own `HKError(code, message)` is the same error: its message is the
    /// description under NSLocalizedDescriptionKey.
    @Test func theMessageFormIsTheLocalizedDescriptionEntry() {
        let message = HKError(.errorInvalidArgument, "the predicate names an unknown type")
        let apple = HKError(.errorInvalidArgument,
                            userInfo: [NSLocalizedDescriptionKey: "the predicate names an unknown type"])
        #expect(message.userInfo[NSLocalizedDescriptionKey] as? String == "the predicate names an unknown type")
        #expect(message.localizedDescription == "the predicate names an unknown type")
        #expect(message == apple)
        #expect(message.hashValue == apple.hashValue)
    }

    /// Equality is code and userInfo. Values are compared by their own equality; a value that
    /// has none (a closure) cannot be compared, and the error still equals itself.
    @Test func equalityIsTheCodeAndTheUserInfo() {
        let base = HKError(.errorNoData, userInfo: ["attempt": 1])
        #expect(base == HKError(.errorNoData, userInfo: ["attempt": 1]))
        #expect(base != HKError(.errorNoData, userInfo: ["attempt": 2]))
        #expect(base != HKError(.errorNoData, userInfo: ["other": 1]))
        #expect(base != HKError(.errorNoData))
        #expect(base != HKError(.errorDatabaseInaccessible, userInfo: ["attempt": 1]))
        #expect(Set([base, HKError(.errorNoData, userInfo: ["attempt": 1])]).count == 1)

        let retry: @Sendable () -> Void = {}
        let withClosure = HKError(.errorNoData, userInfo: ["retry": retry])
        #expect(withClosure == withClosure)
        #expect(Set([withClosure, withClosure]).count == 1)
        #expect(withClosure != HKError(.errorNoData, userInfo: ["retry": 1]))
    }

    /// Errors cross isolation domains (query handlers run on the SDK's tasks): the error,
    /// userInfo included, is Sendable.
    @Test func anErrorWithUserInfoCrossesIntoATask() async {
        let error = HKError(.errorUserCanceled, userInfo: ["step": "consent"])
        let seen = await Task.detached { error.userInfo["step"] as? String }.value
        #expect(seen == "consent")
    }
}
