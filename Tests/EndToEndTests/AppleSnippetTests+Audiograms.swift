import Foundation
import HealthModel
import Testing
import TestSupport

extension AppleSnippetTests {
    static let audiogram = HKDataTypeIdentifierAudiogram

    /// developer.apple.com/documentation/healthkit/hkaudiogramsample (init(sensitivityPoints:start:end:device:metadata:),
    /// sensitivityPoints), …/hkaudiogramsensitivitypoint (both initializers, leftEarSensitivity,
    /// rightEarSensitivity, tests), …/hkaudiogramsensitivitytest and
    /// …/hkaudiogramsensitivitypointclampingrange, …/hkobjecttype/audiogramsampletype(): saved by a
    /// sandboxed app through healthd's encrypted store, read back by HKSampleQuery, the
    /// `.audiogram()` descriptor and an anchored descriptor, then deleted. The 1 kHz point
    /// was built in kHz and comes back in Hz; its left ear is the masked test's (the only left
    /// test); the 4 kHz point has no left ear.
    @Test func anAudiogramIsSavedReadBackByEveryQueryKindAndDeleted() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-audiogram")
        try await broker.set(app, "share", Self.audiogram, allowed: true)
        try await broker.set(app, "read", Self.audiogram, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "audiogram"])
        #expect(result.okValue == "1 1 1 500Hz:10/15 1000Hz:30/25 4000Hz:-/45 masked:true clamp:80 Audiometer deleted:true", "\(result)")
    }

    /// The refusals of Apple's throwing initializers — a frequency not in Hz, a sensitivity not
    /// in dBHL, 30001 Hz, NaN dBHL, no ear, a clamping range without bounds and one with
    /// lower > upper — each errorInvalidArgument (3); then saves HealthKit refuses: 31 points,
    /// descending and repeated frequencies, and 10^6 points, each refused with code 3 by healthd
    /// (or, for 10^6, before it is sent), nothing stored.
    @Test func audiogramsBreakingApplesRulesAreRefused() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-audiogram-refused")
        try await broker.set(app, "share", Self.audiogram, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "audiogram-refused"])
        #expect(result.okValue == "3 3 3 3 3 3 3 3 3 3 3", "\(result)")
        let listing = try await broker.healthctl(["samples", "HKDataTypeIdentifierAudiogram"])
        #expect(listing.status == 0 && !listing.stdout.contains("point"), "nothing was stored: \(listing)")
    }

    /// While the store is locked, a save succeeds as HealthKit's does and is journaled with its
    /// points; at unlock the audiogram arrives whole.
    @Test func anAudiogramSavedWhileTheStoreIsLockedArrivesWholeAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-audiogram-locked")
        try await broker.set(app, "share", Self.audiogram, allowed: true)
        try await broker.set(app, "read", Self.audiogram, allowed: true)
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        let saved = try await broker.runApp(app, ["snippet", "audiogram-save"])
        #expect(saved.okValue == "saved", "\(saved)")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0 && unlock.stdout.contains("merged"), "the save was journaled: \(unlock)")
        let result = try await broker.runApp(app, ["snippet", "audiogram-read"])
        #expect(result.okValue == "1 1 1 500Hz:10/15 1000Hz:30/25 4000Hz:-/45 masked:true clamp:80 Audiometer", "\(result)")
    }
}
