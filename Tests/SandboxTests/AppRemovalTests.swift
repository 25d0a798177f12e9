import Foundation
import Glibc
import HealthModel
import HealthWire
import Testing
import TestSupport

/// `healthctl apps remove` ends the app's presence at once (issue 16; DESIGN.md §3, §7.6): a
/// real app confined by health-sandbox, with an anchored query, an observer and a watched
/// statistics collection running and an authorization request waiting for the user, is removed.
/// Then:
/// - every one of them ends with errorAuthorizationDenied (gRPC UNAUTHENTICATED) saying the app
///   was removed — not a silent hang, not "connection closed" (IdentityEnding says why that code);
/// - its waiting request is gone from the user's prompts;
/// - its next call on the same connection fails the same way;
/// - launching it again is refused;
/// - installed again under the same id, it starts with no grant: its answers equal those of an
///   app that was never granted anything.
/// Run as root (apps get their own uids) and as an unprivileged user (the realistic deployment).
@Suite(.timeLimit(.minutes(10)), .serialized) struct AppRemovalTests {
    static let appID = "org.test.removed"
    static let neverGranted = "org.test.never-granted"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    @Test(arguments: EscapeUser.allCases.filter(\.isAvailable))
    func removalEndsEveryStreamTheNextCallAndTheReconnect(_ user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let (executable, data) = try await world.install(Self.appID, product: "leak-probe-client")
        let control = try await world.install(Self.neverGranted, product: "leak-probe-client")
        for access in ["read", "share"] {
            let granted = try await world.healthctl(["grant", Self.appID, access, Self.steps])
            try #require(granted.status == 0, "\(granted)")
        }
        let session = try await SandboxedAppSession(Self.appID, in: world, executable: executable, data: data)
        let statusRequest = "unary \(HealthStoreMethod.authorizationStatus.rawValue) \(Self.hex(TypeIdentifierMessage(Self.steps).wireBytes()))"
        let before = try await session.run(statusRequest)
        try #require(before.first?.hasPrefix("reply ") == true, "the app is not served before its removal: \(before)")

        let streams = try await Self.openStreams(session)
        let prompts = try await world.healthctl(["requests", "--wait", "--timeout", "30"])
        #expect(prompts.stdout.contains(Self.appID), "positive control: the app's request waits for the user: \(prompts)")

        let removed = try await world.healthctl(["apps", "remove", Self.appID, "--keep-data"])
        try #require(removed.status == 0, "\(removed)")

        let denied = "status \(StatusCode.unauthenticated.rawValue) \(HKError.Code.errorAuthorizationDenied.rawValue) "
        for name in streams {
            let ending = try await session.waitForWatched(name, timeout: 120) { !$0.hasPrefix("item ") }
            #expect(ending?.hasPrefix(denied) == true, "the \(name) stream did not end with errorAuthorizationDenied: \(ending ?? "still open")")
            if let ending, let message = Self.message(of: ending) {
                #expect(message.contains("removed"), "the \(name) stream's status does not say why: \(message)")
            }
        }
        let after = try await session.run(statusRequest)
        #expect(after.first?.hasPrefix(denied) == true, "a call on the removed app's connection was not refused: \(after)")
        let promptsAfter = try await world.healthctl(["requests"])
        #expect(!promptsAfter.stdout.contains(Self.appID), "the removed app's request still waits for the user: \(promptsAfter)")
        #expect(await session.finish() == 0)

        let relaunch = try await world.runSandboxed(Self.appID, data: data, [executable])
        #expect(relaunch.status != 0 && relaunch.stderr.contains("no installed app"), "a removed app was launched again: \(relaunch)")

        // Installed again under the same id: nothing of the old installation carries over.
        _ = try await world.install(Self.appID, product: "leak-probe-client")
        let reinstalled = try await SandboxedAppSession(Self.appID, in: world, executable: executable, data: data)
        let fresh = try await SandboxedAppSession(Self.neverGranted, in: world, executable: control.executable, data: control.data)
        let reinstalledAnswer = try await reinstalled.run(statusRequest)
        let freshAnswer = try await fresh.run(statusRequest)
        #expect(reinstalledAnswer.first?.hasPrefix("reply ") == true, "the reinstalled app is not served: \(reinstalledAnswer)")
        #expect(reinstalledAnswer == freshAnswer, "the reinstalled app inherited a grant: \(reinstalledAnswer) vs never granted \(freshAnswer)")
        #expect(await reinstalled.finish() == 0)
        #expect(await fresh.finish() == 0)
    }

    /// A reinstall that changes the manifest (here its usage descriptions) ends the running app's
    /// streams too: they were served under the old manifest.
    @Test(arguments: EscapeUser.allCases.filter(\.isAvailable))
    func aReinstallWithAnotherManifestEndsTheOldOnesStreams(_ user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let (executable, data) = try await world.install(Self.appID, product: "leak-probe-client")
        let session = try await SandboxedAppSession(Self.appID, in: world, executable: executable, data: data)
        let observer = "open observer \(HealthStoreMethod.observeChanges.rawValue) \(Self.hex(TypePredicateSpec(typeIdentifier: Self.steps).wireBytes()))"
        _ = try await session.run(observer)
        _ = try await session.waitForWatched("observer", timeout: 60) { _ in true }
        // Control: the same manifest installed again changes nothing.
        _ = try await world.healthctl(["apps", "install", world.root + "/\(Self.appID).json"])
        try await Task.sleep(for: .milliseconds(500))
        #expect(!session.watched("observer").contains { !$0.hasPrefix("item ") }, "a reinstall of the same manifest ended the stream")

        // The same executable (it is running: a copy over it would fail), another description.
        let original = world.root + "/\(Self.appID).json"
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: original))) as? [String: Any])
        manifest["NSHealthShareUsageDescription"] = "changed"
        let changedPath = world.root + "/changed.json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: changedPath))
        chmod(changedPath, 0o644)
        let changed = try await world.healthctl(["apps", "install", changedPath])
        try #require(changed.status == 0, "\(changed)")
        let ending = try await session.waitForWatched("observer", timeout: 120) { !$0.hasPrefix("item ") }
        #expect(ending?.hasPrefix("status \(StatusCode.unauthenticated.rawValue) ") == true, "the stream outlived the manifest it was served under: \(ending ?? "still open")")
        _ = await session.finish()
    }

    /// Opens the anchored query, the observer and the watched collection (long-running) and an
    /// authorization request the user does not answer; waits for each stream's first message.
    static func openStreams(_ session: SandboxedAppSession) async throws -> [String] {
        let collection = StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: steps, options: [.cumulativeSum]),
                                                  anchor: Date(timeIntervalSince1970: 1_699_920_000),
                                                  interval: StatisticsInterval(hours: 1), timeZoneIdentifier: "UTC")
        let streams: [(String, HealthStoreMethod, [UInt8])] = [
            ("anchored", .queryAnchored, AnchoredQuerySpec(typeIdentifier: steps, longRunning: true).wireBytes()),
            ("observer", .observeChanges, TypePredicateSpec(typeIdentifier: steps).wireBytes()),
            ("collection", .watchStatisticsCollection, collection.wireBytes()),
        ]
        for (name, method, payload) in streams {
            _ = try await session.run("open \(name) \(method.rawValue) \(hex(payload))")
            let first = try await session.waitForWatched(name, timeout: 60) { _ in true }
            try #require(first?.hasPrefix("item ") == true, "the \(name) stream did not start: \(first ?? "nothing")")
        }
        let request = AuthorizationTypes(share: [], read: [HKQuantityTypeIdentifier.heartRate.rawValue])
        _ = try await session.run("open prompt \(HealthStoreMethod.requestAuthorization.rawValue) \(hex(request.wireBytes()))")
        return streams.map(\.0) + ["prompt"]
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The message of a `status CODE HK MESSAGE-HEX` line.
    static func message(of line: String) -> String? {
        guard let field = line.split(separator: " ").dropFirst(3).first else { return nil }
        var bytes: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex, let next = field.index(index, offsetBy: 2, limitedBy: field.endIndex),
              let byte = UInt8(field[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
