import Foundation
import HealthModel
import Testing
import TestSupport

/// HKStateOfMind (iOS 18) as Apple documents it, against a real healthd
/// (Tests/EndToEndClient/StateOfMindSnippets.swift).
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkstateofmind and …/hkobjecttype/stateofmindtype():
    /// a momentary emotion and a daily mood saved with `HKStateOfMind(date:kind:valence:labels:
    /// associations:)` come back from a sample query of `stateOfMindType()` with their kind,
    /// valence, labels and associations in order; `valenceClassification` is Apple's band
    /// (0.5 is pleasant, 0.25 slightly pleasant: HKStateOfMind.ValenceClassification).
    /// …/hkquery/predicateforstatesofmind(with:)-(association) and
    /// …/predicateforstatesofmind(withvalence:predicateoperatortype:), combined with
    /// NSCompoundPredicate, select the one of the two pleasant states of mind that is about work.
    @Test func aStateOfMindSavedAsAppleDocumentsItIsReadBackWhole() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-state-of-mind")
        try await broker.set(app, "share", HKDataTypeIdentifierStateOfMind, allowed: true)
        try await broker.set(app, "read", HKDataTypeIdentifierStateOfMind, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "state-of-mind"])
        #expect(result.okValue == "2 momentaryEmotion:0.5:pleasant:happy,satisfied:work,weather "
                + "dailyMood:0.25:slightlyPleasant::family work:1", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkstateofmind/valence: valence is −1…+1;
    /// HealthKit refuses another with errorInvalidArgument ("Only valence values in the range
    /// [-1, +1] are supported"), checked here at healthd.
    @Test func aStateOfMindWithValenceOutsideItsRangeIsRefused() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-state-of-mind-range")
        try await broker.set(app, "share", HKDataTypeIdentifierStateOfMind, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "state-of-mind-out-of-range"])
        #expect(result.okValue == "invalidArgument", "\(result)")
    }
}
