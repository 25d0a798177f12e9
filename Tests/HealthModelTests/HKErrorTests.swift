import Foundation
import Testing
@testable import HealthModel

/// The error codes' raw values are part of the wire and of ported code: they must match
/// HealthKit's table in ../shared/spec/healthkit/error_codes.tsv.
@Suite(.timeLimit(.minutes(10))) struct HKErrorTests {
    @Test func rawValuesMatchHealthKitTable() throws {
        let rows = try SpecTable.load("error_codes.tsv")
        #expect(rows.count == HKError.Code.allCases.count)
        for row in rows {
            let swiftCase = row["swift_case(HKError.Code)"]!.components(separatedBy: " / ")[0]
            let raw = Int(row["raw_value(NSInteger)"]!)!
            let code = try #require(HKError.Code(rawValue: raw), "no code for raw value \(raw)")
            #expect("\(code)" == swiftCase)
        }
    }

    /// Every code is also a static member of HKError, as in HealthKit's Swift interface, and the
    /// error bridges to NSError in HKErrorDomain with the raw value as its code.
    @Test func everyCodeIsAStaticMemberAndBridgesToNSError() {
        let statics: [HKError.Code] = [
            HKError.unknownError, HKError.errorHealthDataUnavailable, HKError.errorHealthDataRestricted,
            HKError.errorInvalidArgument, HKError.errorAuthorizationDenied, HKError.errorAuthorizationNotDetermined,
            HKError.errorDatabaseInaccessible, HKError.errorUserCanceled, HKError.errorAnotherWorkoutSessionStarted,
            HKError.errorUserExitedWorkoutSession, HKError.errorRequiredAuthorizationDenied, HKError.errorNoData,
            HKError.errorWorkoutActivityNotAllowed, HKError.errorDataSizeExceeded,
            HKError.errorBackgroundWorkoutSessionNotAllowed, HKError.errorNotPermissibleForGuestUserMode,
        ]
        #expect(statics == HKError.Code.allCases)
        #expect(HKError.noError == .unknownError)
        let bridged = HKError(.errorNoData, "no samples match") as NSError
        #expect(bridged.domain == HKErrorDomain)
        #expect(HKErrorDomain == "com.apple.healthkit")
        #expect(bridged.code == 11)
        #expect(bridged.localizedDescription == "no samples match")
    }
}
