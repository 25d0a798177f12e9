import Foundation
import HealthKit

// Snippets for audiograms, written as Apple's pages show them (see AppleSnippets.swift). Only
// the `print` lines are the test's.

/// developer.apple.com/documentation/healthkit/hkaudiogramsensitivitypoint/init(frequency:leftearsensitivity:rightearsensitivity:),
/// …/hkaudiogramsensitivitypoint/init(frequency:tests:), …/hkaudiogramsensitivitytest/init(sensitivity:type:masked:side:clampingrange:),
/// …/hkaudiogramsensitivitypointclampingrange/init(lowerbound:upperbound:) and
/// …/hkaudiogramsample/init(sensitivitypoints:start:end:device:metadata:): a three-frequency
/// audiogram saved, read back with an HKSampleQuery for `HKObjectType.audiogramSampleType()`,
/// the descriptor predicate `.audiogram()` and an anchored descriptor, then deleted and
/// seen deleted by the anchored descriptor. Prints the counts, each point's frequency and ears,
/// the masked and clamped test, and the device name.
/// `save` and `read` run the halves alone (for the locked-store test).
func audiogramSnippet(_ healthStore: HKHealthStore, save: Bool = true, read: Bool = true) async throws {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    if save { try await healthStore.save(try makeAudiogram(start: start)) }
    if read { try await readAudiogram(healthStore, start: start, delete: save) }
    if !read { print("ok saved") }
}

private func makeAudiogram(start: Date) throws -> HKAudiogramSample {
    let low = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 500),
                                              leftEarSensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 10),
                                              rightEarSensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 15))
    let clamping = try HKAudiogramSensitivityPointClampingRange(lowerBound: nil, upperBound: 80)
    let left = try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 30),
                                              type: .air, masked: true, side: .left, clampingRange: clamping)
    let right = try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 25),
                                               type: .air, masked: false, side: .right, clampingRange: nil)
    let middle = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertzUnit(with: .kilo), doubleValue: 1), tests: [left, right])
    let high = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 4000),
                                               leftEarSensitivity: nil,
                                               rightEarSensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 45))
    let device = HKDevice(name: "Audiometer", manufacturer: "Example", model: nil, hardwareVersion: nil, firmwareVersion: nil,
                          softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
    return HKAudiogramSample(sensitivityPoints: [low, middle, high], start: start, end: start.addingTimeInterval(600),
                             device: device, metadata: nil)
}

private func readAudiogram(_ healthStore: HKHealthStore, start: Date, delete: Bool) async throws {
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: HKObjectType.audiogramSampleType(), predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    let described = try await HKSampleQueryDescriptor(predicates: [.audiogram()], sortDescriptors: []).result(for: healthStore)
    let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.audiogram()], anchor: nil).result(for: healthStore)
    guard let audiogram = samples.first as? HKAudiogramSample, audiogram.startDate == start else { usage("the saved audiogram was not found") }
    let points = audiogram.sensitivityPoints.map { point in
        let ears = [point.leftEarSensitivity, point.rightEarSensitivity]
            .map { $0.map { "\(Int($0.doubleValue(for: .decibelHearingLevel())))" } ?? "-" }
        return "\(Int(point.frequency.doubleValue(for: .hertz())))Hz:\(ears.joined(separator: "/"))"
    }
    let masked = audiogram.sensitivityPoints[1].tests.first { $0.side == .left }
    let clampedAt = masked?.clampingRange?.upperBound?.doubleValue(for: .decibelHearingLevel())
    var line = "\(samples.count) \(described.count) \(anchored.addedSamples.count) \(points.joined(separator: " "))"
        + " masked:\(masked?.masked == true) clamp:\(clampedAt.map { "\(Int($0))" } ?? "none") \(audiogram.device?.name ?? "no-device")"
    if delete {
        try await healthStore.delete(audiogram)
        let after = try await HKAnchoredObjectQueryDescriptor(predicates: [.audiogram()], anchor: anchored.newAnchor)
            .result(for: healthStore)
        line += " deleted:\(after.deletedObjects.map(\.uuid) == [audiogram.uuid])"
    }
    print("ok \(line)")
}

/// The throwing initializers' refusals (developer.apple.com/documentation/healthkit/
/// hkaudiogramsensitivitypoint: "Errors may include incorrect quantity units or data that is out
/// of an expected range"; …/hkaudiogramsensitivitypointclampingrange: a bound, lower < upper),
/// then saves HealthKit refuses (…/hkaudiogramsample/init(sensitivitypoints:start:end:device:metadata:):
/// at most 30 points, frequencies unique and ascending) and a million points. Prints each
/// refusal's HKError code.
func audiogramRefusedSnippet(_ healthStore: HKHealthStore) async throws {
    let dBHL = HKUnit.decibelHearingLevel()
    func code(_ body: () throws -> Any) -> String {
        do { _ = try body(); return "accepted" } catch let error as HKError { return "\(error.code.rawValue)" } catch { return "other" }
    }
    var printed = [
        code { try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .second(), doubleValue: 1000), leftEarSensitivity: nil,
                                               rightEarSensitivity: HKQuantity(unit: dBHL, doubleValue: 10)) },
        code { try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1000),
                                               leftEarSensitivity: HKQuantity(unit: .count(), doubleValue: 10), rightEarSensitivity: nil) },
        code { try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 30_001), leftEarSensitivity: nil,
                                               rightEarSensitivity: HKQuantity(unit: dBHL, doubleValue: 10)) },
        code { try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1000), leftEarSensitivity: nil,
                                               rightEarSensitivity: HKQuantity(unit: dBHL, doubleValue: .nan)) },
        code { try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1000), leftEarSensitivity: nil,
                                               rightEarSensitivity: nil) },
        code { try HKAudiogramSensitivityPointClampingRange(lowerBound: nil, upperBound: nil) },
        code { try HKAudiogramSensitivityPointClampingRange(lowerBound: 50, upperBound: 40) },
    ]
    func point(_ hertz: Double) throws -> HKAudiogramSensitivityPoint {
        try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: hertz),
                                        leftEarSensitivity: HKQuantity(unit: dBHL, doubleValue: 20), rightEarSensitivity: nil)
    }
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let one = try point(1000)
    let refusedSaves: [[HKAudiogramSensitivityPoint]] = [
        try (1...31).map { try point(Double($0) * 100) },
        [try point(2000), one],
        [one, one],
        Array(repeating: one, count: 1_000_000),
    ]
    for points in refusedSaves {
        let sample = HKAudiogramSample(sensitivityPoints: points, start: start, end: start.addingTimeInterval(60), metadata: nil)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            healthStore.save(sample) { success, error in continuation.resume(returning: success ? nil : error) }
        }
        printed.append((error as? HKError).map { "\($0.code.rawValue)" } ?? (error == nil ? "saved" : "other"))
    }
    print("ok \(printed.joined(separator: " "))")
}
