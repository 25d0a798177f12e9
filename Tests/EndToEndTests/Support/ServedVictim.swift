import Foundation
import Glibc
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// The app an availability attack must not slow: a separate confined process (`leak-probe-client`
/// under health-sandbox, its own app id and its own connection) that saves steps and watches them.
enum ServedVictim {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    private static let watchNumber = Atomic<Int>(0)

    /// Installs `appID` (share and read steps) and starts its confined client.
    static func start(_ appID: String, on broker: BrokerProcess) async throws -> ProbeClientSession {
        let client = Products.path("leak-probe-client")
        _ = try await broker.install(appID: appID, executable: client)
        for access in ["share", "read"] { try await broker.set(appID, access, steps, allowed: true) }
        return try ProbeClientSession(Products.path("health-sandbox"), ["run", appID, "--socket", broker.adminSocket, "--", client])
    }

    /// The victim opens a long-running anchored query of steps, saves a sample (a unary call),
    /// and the query delivers that save. Records an issue for each step that fails; returns how
    /// long the three took. The 120 s per step are hang guards: callers check that the attack
    /// still holds afterwards, so the victim was served while it did.
    static func isServed(_ session: ProbeClientSession, _ context: String) async throws -> Duration {
        let name = "w\(watchNumber.add(1, ordering: .relaxed).newValue)"
        let watch = AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: steps)], longRunning: true)
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await session.run("open \(name) \(HealthStoreMethod.queryAnchored.rawValue) \(hex(watch.wireBytes()))", timeout: 120)
        try #require(await waitForWatch(session, name, items: 1), "\(context): the victim's watch never started")
        let before = session.watched(name).count { $0.hasPrefix("item ") }
        let start = Date().addingTimeInterval(-60)
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                  value: .quantity(10, unit: "count"))
        let save = try await session.run("unary \(HealthStoreMethod.save.rawValue) \(hex(SampleList([sample]).wireBytes()))", timeout: 120)
        #expect(save.contains { $0.hasPrefix("reply ") }, "\(context): the victim's save: \(save)")
        #expect(await waitForWatch(session, name, items: before + 1), "\(context): the victim's watch did not deliver its save")
        let took = clock.now - started
        _ = try await session.run("close \(name)", timeout: 120)
        return took
    }

    static func waitForWatch(_ session: ProbeClientSession, _ name: String, items: Int) async -> Bool {
        let until = Date().addingTimeInterval(120)
        while Date() < until {
            if session.watched(name).count(where: { $0.hasPrefix("item ") }) >= items { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// healthd's resident size now, in KiB (0 when it cannot be read).
    static func residentKiB(of broker: BrokerProcess) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(broker.pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
