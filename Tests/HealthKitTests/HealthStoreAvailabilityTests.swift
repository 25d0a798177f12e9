import Foundation
import Glibc
import HealthIPC
import HealthWire
@testable import HealthKit
import Testing

/// `isHealthDataAvailable()`, `earliestPermittedSampleDate()` and `supportsHealthRecords()`:
/// the checks HealthKit apps make before anything else.
@Suite(.timeLimit(.minutes(10))) struct HealthStoreAvailabilityTests {
    /// A connection that dials `path` by name, as an app outside health-sandbox does.
    private func connection(dialling path: String) -> BrokerConnection {
        BrokerConnection(environment: [LaunchEnvironment.appSocketPathVariable: path])
    }

    @Test func availableWhenTheAppSocketAcceptsAConnection() throws {
        // A folder of the test's own, 0700: clients refuse a socket in a folder others may write
        // (`BrokerSocket`), and /tmp itself is one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("availability-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let path = folder.appendingPathComponent("app.sock").path
        let listener = try UnixSocket.listen(path: path, mode: 0o600)
        defer { close(listener); try? FileManager.default.removeItem(at: folder) }
        let connection = connection(dialling: path)
        #expect(HKHealthStore.healthDataAvailable(on: connection))
        try connection.client().close()
    }

    @Test func unavailableWhenNothingListensAtTheAppSocket() {
        #expect(!HKHealthStore.healthDataAvailable(on: connection(dialling: "/nonexistent-openhealth-\(getpid())/app.sock")))
    }

    /// health-sandbox's descriptor variable naming something that is not a socket.
    @Test func unavailableWhenTheInheritedDescriptorIsNotASocket() throws {
        let descriptor = open("/dev/null", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let connection = BrokerConnection(environment: [LaunchEnvironment.socketDescriptorVariable: "\(descriptor)"])
        #expect(!HKHealthStore.healthDataAvailable(on: connection))
    }

    @Test func availableOnAnInheritedSocket() throws {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        defer { close(serverEnd) }
        let connection = BrokerConnection(environment: [LaunchEnvironment.socketDescriptorVariable: "\(clientEnd)"])
        #expect(HKHealthStore.healthDataAvailable(on: connection))
        try connection.client().close()
    }

    /// Apple's value, 1900-01-01T00:00:00Z, and the SDK refuses a sample starting a second before
    /// it (before any round-trip: the store dials nothing) while one starting at it goes on to
    /// the broker (here: none, so `errorHealthDataUnavailable`).
    @Test func earliestPermittedSampleDateIsTheSaveBound() async throws {
        let store = HKHealthStore(connection: connection(dialling: "/nonexistent-openhealth-\(getpid())/app.sock"))
        let earliest = store.earliestPermittedSampleDate()
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        #expect(earliest == utc.date(from: DateComponents(year: 1900, month: 1, day: 1)))

        func code(savingFrom start: Date) async -> HKError.Code? {
            let sample = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                          start: start, end: start.addingTimeInterval(60))
            do {
                try await store.save(sample)
                return nil
            } catch {
                return (error as? HKError)?.code
            }
        }
        #expect(await code(savingFrom: earliest.addingTimeInterval(-1)) == .errorInvalidArgument)
        #expect(await code(savingFrom: earliest) == .errorHealthDataUnavailable)
    }

    /// healthd serves clinical records whatever the locale (Apple's answer depends on it).
    @Test func healthRecordsAreSupported() {
        #expect(HKHealthStore().supportsHealthRecords())
    }
}
