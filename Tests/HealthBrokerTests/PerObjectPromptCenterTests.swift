import Foundation
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
        while await center.requests.count < count {
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
                                 typeIdentifier: HKVisionPrescriptionTypeIdentifier, predicate: nil)
        }
        let keptCall = Task {
            try await center.ask(app: Self.manifest(kept.appID), installation: kept,
                                 typeIdentifier: HKVisionPrescriptionTypeIdentifier, predicate: nil)
        }
        try await Self.waitForPending(center, count: 2)
        let keptID = try #require(await center.requests.first { $0.app.id == kept.appID }?.id)
        #expect(await center.request(keptID)?.request.installation == kept)

        #expect(await center.withdrawAll(appID: removed.appID) == 1)
        let remaining = await center.requests.map(\.app.id)
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

    /// A document offer holds what the app asked, one per app and type: the app's next document
    /// query replaces its predicate and keeps its id and what the user was shown; a listing that
    /// finds nothing to show withdraws it, but never a request a call waits on.
    @Test func anOfferIsOnePerAppAndTypeAndAListingWithdrawsOnlyOffers() async throws {
        let center = PerObjectPromptCenter(maxPendingPerApp: 4)
        let app = AppInstallation(appID: "org.test.offering", installedMicroseconds: 1)
        let cda = HKDocumentTypeIdentifier.CDA.rawValue
        await center.offer(app: Self.manifest(app.appID), installation: app, typeIdentifier: cda, predicate: nil)
        let id = try #require(await center.requests.first?.id)
        let shown = [UUID(), UUID()]
        await center.show(id, candidates: shown)
        let later = SamplePredicate.uuids([UUID()])
        await center.offer(app: Self.manifest(app.appID), installation: app, typeIdentifier: cda, predicate: later)
        let requests = await center.requests
        #expect(requests.map(\.id) == [id] && requests.first?.predicate == later && requests.first?.isOffer == true)
        #expect(await center.request(id)?.shown == shown)

        let asking = Task {
            try await center.ask(app: Self.manifest(app.appID), installation: app, typeIdentifier: HKVisionPrescriptionTypeIdentifier,
                                 predicate: nil)
        }
        try await Self.waitForPending(center, count: 2)
        let askID = try #require(await center.requests.first { !$0.isOffer }?.id)
        await center.withdrawOffer(askID)
        await center.withdrawOffer(id)
        #expect(await center.requests.map(\.id) == [askID])
        #expect(await center.resolve(askID))
        try await asking.value
    }
}
