import HealthModel
import HealthStore
import Testing

@testable import HealthBroker

/// Pending per-object read requests and app removal: removing an app withdraws its requests
/// (the waiting call learns why) and leaves other apps' alone, and each request keeps the
/// installation that asked, which the answer's grants are bound to.
@Suite(.timeLimit(.minutes(10))) struct PerObjectPromptCenterTests {
    static func manifest(_ id: String) -> AppManifest {
        AppManifest(id: id, displayName: id, executable: "/usr/bin/true", version: "1",
                    readUsageDescription: "reads", shareUsageDescription: "writes")
    }

    /// Waits until `count` requests are pending (the asks run in their own tasks); 30 s hang guard.
    static func waitForPending(_ center: PerObjectPromptCenter, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while await center.prompts.count < count {
            try #require(ContinuousClock.now < deadline, "the requests never became pending")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func removingAnAppWithdrawsItsRequestsOnly() async throws {
        let center = PerObjectPromptCenter(maxPendingPerApp: 4)
        let removed = AppInstallation(appID: "org.test.removed", installedMicroseconds: 1)
        let kept = AppInstallation(appID: "org.test.kept", installedMicroseconds: 2)
        let removedCall = Task {
            try await center.ask(app: Self.manifest(removed.appID), installation: removed,
                                 typeIdentifier: HKVisionPrescriptionTypeIdentifier, candidates: [])
        }
        let keptCall = Task {
            try await center.ask(app: Self.manifest(kept.appID), installation: kept,
                                 typeIdentifier: HKVisionPrescriptionTypeIdentifier, candidates: [])
        }
        try await Self.waitForPending(center, count: 2)
        let keptID = try #require(await center.prompts.first { $0.appID == kept.appID }?.requestID)
        #expect(await center.request(keptID)?.installation == kept)

        #expect(await center.withdrawAll(appID: removed.appID) == 1)
        let remaining = await center.prompts.map(\.appID)
        #expect(remaining == [kept.appID])
        // Not withdrawn (the defect): end the call so the test fails instead of hanging.
        if remaining.contains(removed.appID) { removedCall.cancel() }
        await #expect {
            try await removedCall.value
        } throws: { error in
            (error as? HKError)?.code == .errorAuthorizationDenied
        }
        #expect(await center.resolve(keptID))
        try await keptCall.value
    }
}
