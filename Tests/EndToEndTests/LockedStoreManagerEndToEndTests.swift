import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// The manager's app settings while the store is locked (ARCHITECTURE.md, "Locked store"):
/// direct-connection and network switches are kept (journaled, in force at once, surviving a
/// kill before the unlock); installing and removing apps are refused with a message that says to
/// unlock first.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LockedStoreManagerEndToEndTests {
    static let appID = "org.test.locked-manager"

    private func expectSuccess(_ result: ProcessResult) {
        #expect(result.status == 0, "\(result)")
    }

    /// A healthd with this test process installed as `appID`, allowed to connect directly.
    private func startedHealthd() async throws -> RestartableHealthd {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await SavingApp.install(Self.appID, root: healthd.root) { try await healthd.healthctl($0) }
        return healthd
    }

    /// Whether this process's direct connection is accepted: a call that needs only identity.
    private func directConnectionAccepted(_ healthd: RestartableHealthd) async throws -> Bool {
        let client = try RPCClient.connect(path: healthd.appSocket)
        defer { client.close() }
        do {
            _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue,
                                       TypeIdentifierMessage(SavingApp.stepCount).wireBytes())
            return true
        } catch let status as RPCStatus {
            #expect(status.message.contains("may not connect to healthd directly"), "\(status)")
            return false
        }
    }

    /// The `apps list` row of `appID`.
    private func listedRow(_ healthd: RestartableHealthd) async throws -> String {
        let listed = try await healthd.healthctl(["apps", "list"])
        expectSuccess(listed)
        return listed.lines.first { $0.contains(Self.appID) } ?? ""
    }

    @Test func aDirectConnectionWithdrawnWhileLockedIsRefusedAtOnceAndAfterAKill() async throws {
        let healthd = try await startedHealthd()
        expectSuccess(try await healthd.healthctl(["lock"]))
        #expect(try await directConnectionAccepted(healthd))
        expectSuccess(try await healthd.healthctl(["apps", "deny-direct", Self.appID]))
        #expect(try await !directConnectionAccepted(healthd), "the withdrawal did not take effect while locked")
        // Journaled before it took effect: a kill before the unlock keeps it.
        healthd.kill()
        try healthd.start()
        #expect(try await !directConnectionAccepted(healthd), "the withdrawal made while locked was lost")
        #expect(try await listedRow(healthd).contains("no"))
    }

    @Test func switchesSetWhileLockedAreMergedAtUnlock() async throws {
        let healthd = try await startedHealthd()
        expectSuccess(try await healthd.healthctl(["apps", "deny-direct", Self.appID]))
        expectSuccess(try await healthd.healthctl(["lock"]))
        expectSuccess(try await healthd.healthctl(["apps", "allow-direct", Self.appID]))
        expectSuccess(try await healthd.healthctl(["apps", "allow-network", Self.appID]))
        #expect(try await directConnectionAccepted(healthd), "the opt-in did not take effect while locked")
        expectSuccess(try await healthd.healthctl(["unlock"]))
        #expect(try await directConnectionAccepted(healthd))
        let row = try await listedRow(healthd)
        // Its manifest asks for no network: allowed by the user, it is "permitted".
        #expect(row.contains("allowed") && row.contains("permitted"), "\(row)")
    }

    @Test func installingOrRemovingAnAppWhileLockedIsRefusedWithWhatToDo() async throws {
        let healthd = try await startedHealthd()
        expectSuccess(try await healthd.healthctl(["lock"]))
        let manifest = healthd.root + "/\(Self.appID).json"  // written by SavingApp.install
        let install = try await healthd.healthctl(["apps", "install", manifest])
        #expect(install.status != 0)
        #expect(install.stderr.contains("installing an app needs it unlocked") && install.stderr.contains("healthctl unlock"),
                "\(install)")
        let remove = try await healthd.healthctl(["apps", "remove", Self.appID, "--keep-data"])
        #expect(remove.status != 0)
        #expect(remove.stderr.contains("removing an app") && remove.stderr.contains("healthctl unlock"), "\(remove)")
        expectSuccess(try await healthd.healthctl(["unlock"]))
        expectSuccess(try await healthd.healthctl(["apps", "install", manifest]))
    }
}
