import Foundation
@testable import HealthKit
import Testing

/// HKSample ⇄ SampleRecord: what `save` sends and what a query hands back.
@Suite(.timeLimit(.minutes(10))) struct SampleRecordConversionTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let end = Date(timeIntervalSince1970: 1_700_000_600)

    @Test func quantitySampleKeepsItsUnitValueDeviceAndMetadata() throws {
        let device = HKDevice(name: "Band", manufacturer: "Acme", model: "B1", hardwareVersion: "2", firmwareVersion: nil,
                              softwareVersion: "1.4", localIdentifier: "local-7", udiDeviceIdentifier: nil)
        let sample = HKQuantitySample(
            type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/s"), doubleValue: 1.25),
            start: start, end: end, device: device,
            metadata: [HKMetadataKeyWasUserEntered: true, "custom.note": "after run", "custom.count": 3,
                       "custom.when": start, "custom.dose": HKQuantity(unit: .gram(), doubleValue: 0.5)])
        let record = try sample.saveRecord()
        #expect(record.typeIdentifier == "HKQuantityTypeIdentifierHeartRate")
        #expect(record.value == .quantity(1.25, unit: "count/s"))
        #expect(record.startDate == start && record.endDate == end)
        #expect(record.device == DeviceRecord(name: "Band", manufacturer: "Acme", model: "B1", hardwareVersion: "2",
                                              softwareVersion: "1.4", localIdentifier: "local-7"))
        #expect(record.metadata == [HKMetadataKeyWasUserEntered: .bool(true), "custom.note": .string("after run"),
                                    "custom.count": .number(3), "custom.when": .date(start),
                                    "custom.dose": .quantity(value: 0.5, unit: "g")])
        #expect(record.source == nil)
    }

    @Test func categorySampleCarriesItsRawValue() throws {
        let sample = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
                                      start: start, end: end)
        let record = try sample.saveRecord()
        #expect(record.value == .category(5))
        #expect(record.metadata.isEmpty && record.device == nil)
        #expect(sample.metadata == nil)
    }

    @Test func unsupportedMetadataValueFailsTheSaveNamingTheKey() {
        let sample = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                      start: start, end: end, metadata: ["ok": "fine", "bad.key": [1, 2]])
        #expect(sample.metadata?.keys.sorted() == ["ok"])
        #expect {
            _ = try sample.saveRecord()
        } throws: { error in
            let error = error as? HKError
            return error?.code == .errorInvalidArgument && error?.message.contains("bad.key") == true
        }
    }

    @Test func fetchedRecordBecomesTheMatchingSampleClassWithItsSource() throws {
        let uuid = UUID()
        let record = SampleRecord(uuid: uuid, typeIdentifier: "HKQuantityTypeIdentifierStepCount", startDate: start, endDate: end,
                                  value: .quantity(42, unit: "count"), metadata: ["custom.flag": .bool(false)],
                                  device: DeviceRecord(name: "Phone"),
                                  source: SourceRecord(bundleIdentifier: "org.example.walk", name: "Walk", version: "3"))
        let sample = try #require(try HKSample.fetched(record) as? HKQuantitySample)
        #expect(sample.uuid == uuid)
        #expect(sample.quantityType == HKQuantityType(.stepCount))
        #expect(sample.quantity.doubleValue(for: .count()) == 42)
        #expect(sample.device?.name == "Phone")
        #expect(sample.sourceRevision == HKSourceRevision(source: HKSource(name: "Walk", bundleIdentifier: "org.example.walk"),
                                                           version: "3"))
        #expect((sample.metadata?["custom.flag"] as? NSNumber)?.boolValue == false)
        #expect(sample.count == 1)
    }

    /// Apple: HKObject equality is its UUID (NSObject `isEqual:` on HKObject compares `uuid`), so
    /// two fetches of one stored sample are equal and a Set holds it once.
    @Test func objectsAreEqualWhenTheirUUIDsAre() throws {
        func fetch(_ uuid: UUID, _ value: Double) throws -> HKSample {
            try HKSample.fetched(SampleRecord(uuid: uuid, typeIdentifier: "HKQuantityTypeIdentifierStepCount", startDate: start,
                                              endDate: end, value: .quantity(value, unit: "count")))
        }
        let uuid = UUID()
        let first = try fetch(uuid, 42), again = try fetch(uuid, 42), other = try fetch(UUID(), 42)
        #expect(first == again)
        #expect(first !== again)
        #expect(first != other)
        #expect(Set([first, again, other]).count == 2)
        #expect([first, other].contains(again))
    }

    @Test func recordWhoseValueKindDoesNotFitItsTypeIsRefused() {
        let record = SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierStepCount", startDate: start,
                                  endDate: end, value: .category(1))
        #expect(throws: HKError.self) { _ = try HKSample.fetched(record) }
    }
}

/// Apple: `HKDevice.local()` "returns a device object that represents the current device".
/// Here: this machine, from the files the kernel and the distribution publish.
@Suite(.timeLimit(.minutes(10))) struct LocalDeviceTests {
    @Test func theLocalDeviceDescribesThisMachine() throws {
        let device = HKDevice.local()
        #expect(device.name == ProcessInfo.processInfo.hostName)
        #expect(device.hardwareVersion == "x86_64" || device.hardwareVersion == "aarch64")
        if let osRelease = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8), osRelease.contains("PRETTY_NAME") {
            #expect(device.softwareVersion.map { osRelease.contains($0) } == true)
        }
        #expect(device.localIdentifier == nil)
        #expect(HKDevice.local() == device)
    }
}
