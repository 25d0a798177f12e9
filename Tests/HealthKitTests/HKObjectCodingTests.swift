import Foundation
import Testing
@testable import HealthKit
import HealthWire

/// Apps persist samples the way they persist anchors: Apple's `HKObject` and every subclass are
/// `NSObject`s conforming to `NSSecureCoding` (https://developer.apple.com/documentation/healthkit/hkobject,
/// "Conforms To NSSecureCoding"), archived with `NSKeyedArchiver.archivedData(withRootObject:
/// requiringSecureCoding: true)` and read back with `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`.
/// The restored object is equal to the original (HKObject equality is its UUID) and carries the
/// same type, dates, value, metadata, device and source revision. Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct HKObjectCodingTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let end = Date(timeIntervalSince1970: 1_700_000_600)
    let watch = HKDevice(name: "Watch", manufacturer: "Acme", model: "W2", hardwareVersion: nil, firmwareVersion: "4",
                         softwareVersion: nil, localIdentifier: "local-9", udiDeviceIdentifier: nil)

    /// What `HKObject` itself promises after a round trip.
    private func expectSameObject(_ restored: HKSample, _ original: HKSample) {
        #expect(restored == original && restored.isEqual(original) && restored.hash == original.hash)
        #expect(restored.uuid == original.uuid)
        #expect(ObjectIdentifier(type(of: restored)) == ObjectIdentifier(type(of: original)))
        #expect(restored.sampleType == original.sampleType)
        #expect(restored.startDate == original.startDate && restored.endDate == original.endDate)
        #expect(restored.device == original.device)
        #expect(restored.sourceRevision == original.sourceRevision)
        #expect(Set([original, restored]).count == 1)
    }

    @Test func aQuantitySampleKeepsItsQuantityMetadataAndDevice() throws {
        let sample = HKQuantitySample(
            type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/s"), doubleValue: 1.25),
            start: start, end: end, device: watch,
            metadata: [HKMetadataKeyWasUserEntered: true, "custom.note": "after run", "custom.count": 3,
                       "custom.when": start, "custom.dose": HKQuantity(unit: .gram(), doubleValue: 0.5)])
        let restored = try SecureArchive.roundTrip(sample, as: HKQuantitySample.self)
        expectSameObject(restored, sample)
        #expect(restored.quantity == sample.quantity)
        #expect(restored.quantityType == HKQuantityType(.heartRate))
        let metadata = try #require(restored.metadata)
        #expect(metadata.count == 5)
        #expect((metadata[HKMetadataKeyWasUserEntered] as? NSNumber)?.boolValue == true)
        #expect(metadata["custom.note"] as? String == "after run")
        #expect((metadata["custom.count"] as? NSNumber)?.intValue == 3)
        #expect(metadata["custom.when"] as? Date == start)
        #expect(metadata["custom.dose"] as? HKQuantity == HKQuantity(unit: .gram(), doubleValue: 0.5))
    }

    /// A fetched sample: the subclass for its type's aggregation, the UUID healthd assigned and
    /// the source revision, read back as `HKSample` (the class an app's cache usually names).
    @Test func aFetchedSampleKeepsItsClassUUIDAndSource() throws {
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: start,
                                  endDate: end, value: .quantity(42, unit: "count"), metadata: ["custom.flag": .bool(false)],
                                  device: DeviceRecord(name: "Phone"),
                                  source: SourceRecord(bundleIdentifier: "org.example.walk", name: "Walk", version: "3"))
        let fetched = try HKSample.fetched(record)
        let restored = try SecureArchive.roundTrip(fetched, as: HKSample.self)
        expectSameObject(restored, fetched)
        #expect(restored is HKCumulativeQuantitySample)
        #expect((restored as? HKQuantitySample)?.quantity == HKQuantity(unit: .count(), doubleValue: 42))
        #expect(restored.sourceRevision.source.bundleIdentifier == "org.example.walk" && restored.sourceRevision.version == "3")
        let heartRate = try HKSample.fetched(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue,
                                                          startDate: start, endDate: start, value: .quantity(61, unit: "count/min")))
        #expect(try SecureArchive.roundTrip(heartRate, as: HKQuantitySample.self) is HKDiscreteQuantitySample)
    }

    /// A revision with a product type and system version (not carried by the wire) survives too.
    @Test func aSourceRevisionsProductTypeAndSystemVersionSurvive() throws {
        let parts = FetchedObjectParts()
        let revision = HKSourceRevision(source: HKSource(name: "Walk", bundleIdentifier: "org.example.walk"), version: "3",
                                        productType: "iPhone14,2",
                                        operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 1))
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKCategoryTypeIdentifier.mindfulSession.rawValue, startDate: start,
                                  endDate: end, value: .category(0), source: parts.share(revision))
        let sample = try HKSample.fetched(record, sharing: parts)
        #expect(sample.sourceRevision.productType == "iPhone14,2")
        let restored = try SecureArchive.roundTrip(sample, as: HKCategorySample.self)
        #expect(restored.sourceRevision == revision)
        #expect(restored.sourceRevision.operatingSystemVersion.minorVersion == 4)
    }

    @Test func aCategorySampleKeepsItsValue() throws {
        let sample = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
                                      start: start, end: end)
        let restored = try SecureArchive.roundTrip(sample, as: HKCategorySample.self)
        expectSameObject(restored, sample)
        #expect(restored.value == HKCategoryValueSleepAnalysis.asleepREM.rawValue)
        #expect(restored.categoryType == HKCategoryType(.sleepAnalysis))
        #expect(restored.metadata == nil)
    }

    @Test func aWorkoutKeepsItsEventsTotalsAndDuration() throws {
        let pause = HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: start.addingTimeInterval(60), duration: 0),
                                   metadata: ["custom.reason": "traffic light"])
        let resume = HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: start.addingTimeInterval(120), duration: 0),
                                    metadata: nil)
        let workout = HKWorkout(activityType: .running, start: start, end: end, workoutEvents: [pause, resume],
                                totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 88),
                                totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1.6),
                                totalSwimmingStrokeCount: nil, device: watch, metadata: [HKMetadataKeyIndoorWorkout: false])
        let restored = try SecureArchive.roundTrip(workout, as: HKWorkout.self)
        expectSameObject(restored, workout)
        #expect(restored.workoutActivityType == .running)
        #expect(restored.duration == workout.duration && restored.duration == 540)
        #expect(restored.workoutEvents == [pause, resume])
        #expect(restored.workoutEvents?.first?.metadata?["custom.reason"] as? String == "traffic light")
        #expect(restored.totalEnergyBurned == HKQuantity(unit: .kilocalorie(), doubleValue: 88))
        #expect(restored.totalDistance == HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1.6))
        #expect((restored.metadata?[HKMetadataKeyIndoorWorkout] as? NSNumber)?.boolValue == false)
    }

    @Test func aCorrelationKeepsItsMembers() throws {
        let mmHg = HKUnit.millimeterOfMercury()
        let systolic = HKQuantitySample(type: HKQuantityType(.bloodPressureSystolic), quantity: HKQuantity(unit: mmHg, doubleValue: 121),
                                        start: start, end: start)
        let diastolic = HKQuantitySample(type: HKQuantityType(.bloodPressureDiastolic), quantity: HKQuantity(unit: mmHg, doubleValue: 79),
                                         start: start, end: start)
        let pressure = HKCorrelation(type: HKCorrelationType(.bloodPressure), start: start, end: start,
                                     objects: [systolic, diastolic], metadata: ["custom.arm": "left"])
        let restored = try SecureArchive.roundTrip(pressure, as: HKCorrelation.self)
        expectSameObject(restored, pressure)
        #expect(restored.objects == [systolic, diastolic])
        let restoredSystolic = try #require(restored.objects(for: HKQuantityType(.bloodPressureSystolic)).first as? HKQuantitySample)
        #expect(restoredSystolic.quantity == HKQuantity(unit: mmHg, doubleValue: 121))
        #expect(restored.correlationType == HKCorrelationType(.bloodPressure))
        #expect(restored.metadata?["custom.arm"] as? String == "left")
    }

    @Test func aStateOfMindKeepsItsKindValenceLabelsAndAssociations() throws {
        let mood = HKStateOfMind(date: start, kind: .dailyMood, valence: -0.25, labels: [.anxious, .stressed],
                                 associations: [.work, .money])
        let restored = try SecureArchive.roundTrip(mood, as: HKStateOfMind.self)
        expectSameObject(restored, mood)
        #expect(restored.kind == .dailyMood && restored.valence == -0.25)
        #expect(restored.labels == [.anxious, .stressed] && restored.associations == [.work, .money])
    }

    @Test func anAssessmentKeepsItsAnswersAndScore() throws {
        let gad7 = HKGAD7Assessment(date: start, answers: [.notAtAll, .severalDays, .nearlyEveryDay, .notAtAll,
                                                            .moreThanHalfTheDays, .severalDays, .notAtAll])
        let restored = try SecureArchive.roundTrip(gad7, as: HKScoredAssessment.self)
        expectSameObject(restored, gad7)
        #expect((restored as? HKGAD7Assessment)?.answers == gad7.answers)
        #expect(restored.score == gad7.score && restored.score == 7)
    }

    @Test func anElectrocardiogramKeepsItsClassificationAndRates() throws {
        let ecg = ElectrocardiogramValue(classification: 2, symptomsStatus: 1, averageHeartRate: 88, samplingFrequency: 512,
                                         voltageCount: 15_360, voltages: nil)
        let fetched = try HKSample.fetched(SampleRecord(uuid: UUID(), typeIdentifier: HKElectrocardiogramTypeIdentifier,
                                                        startDate: start, endDate: start.addingTimeInterval(30),
                                                        value: .electrocardiogram(ecg)))
        let restored = try SecureArchive.roundTrip(fetched, as: HKElectrocardiogram.self)
        expectSameObject(restored, fetched)
        #expect(restored.classification == .atrialFibrillation && restored.symptomsStatus == HKElectrocardiogram.SymptomsStatus.none)
        #expect(restored.numberOfVoltageMeasurements == 15_360)
        #expect(restored.averageHeartRate == HKQuantity(unit: HKUnit.count().unitDivided(by: .minute()), doubleValue: 88))
    }

    /// Equality stays the UUID through an archive: a restored object is found in a set of the
    /// originals, and another sample with equal values is not the same object.
    @Test func equalityIsTheUUIDBeforeAndAfterArchiving() throws {
        let one = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                   start: start, end: end)
        let twin = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                    start: start, end: end)
        let restored = try SecureArchive.roundTrip(one, as: HKQuantitySample.self)
        #expect(Set<HKSample>([one, twin]).contains(restored))
        #expect(restored != twin && !restored.isEqual(twin))
        #expect(!restored.isEqual(HKQuantity(unit: .count(), doubleValue: 10)))
    }

    /// An archive whose sample bytes are missing, not data, or not a sample the wire parser
    /// accepts, or whose sample is of another kind than the class being decoded, is no object.
    @Test func aTamperedArchiveIsNoObject() throws {
        let sample = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: 1, start: start, end: end)
        func decoded(_ fill: (NSKeyedArchiver) -> Void) throws -> (category: HKCategorySample?, quantity: HKQuantitySample?) {
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            fill(archiver)
            archiver.finishEncoding()
            let first = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            first.requiresSecureCoding = true
            let second = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            second.requiresSecureCoding = true
            return (HKCategorySample(coder: first), HKQuantitySample(coder: second))
        }
        // Intact: the category decodes, and only as a category.
        let intact = try decoded { sample.encode(with: $0) }
        #expect(intact.category == sample && intact.quantity == nil)
        // The source fields missing.
        #expect(try decoded { $0.encode(NSData(data: Data(SampleList([sample.archiveRecord]).wireBytes())), forKey: "HKObjectSample") }
            .category == nil)
        // Bytes that are no sample, a string for the bytes, nothing at all.
        for fill: (NSKeyedArchiver) -> Void in [
            { sample.sourceRevision.encode(with: $0); $0.encode(NSData(data: Data([0x0a, 0xff, 0x01])), forKey: "HKObjectSample") },
            { sample.sourceRevision.encode(with: $0); $0.encode(NSString(string: "sample"), forKey: "HKObjectSample") },
            { sample.sourceRevision.encode(with: $0) },
        ] {
            #expect(try decoded(fill).category == nil)
        }
        // A sample of a type the registry does not know.
        var unknown = sample.archiveRecord
        unknown.typeIdentifier = "HKCategoryTypeIdentifierNotAType"
        #expect(try decoded {
            sample.sourceRevision.encode(with: $0)
            $0.encode(NSData(data: Data(SampleList([unknown]).wireBytes())), forKey: "HKObjectSample")
        }.category == nil)
    }

    /// A cumulative type's sample decodes as `HKCumulativeQuantitySample` and never as
    /// `HKDiscreteQuantitySample` (Apple hands out the subclass of the type's aggregation style).
    @Test func aQuantitySampleDecodesOnlyAsTheSubclassOfItsAggregationStyle() throws {
        let steps = try HKSample.fetched(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue,
                                                      startDate: start, endDate: end, value: .quantity(42, unit: "count")))
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        steps.encode(with: archiver)
        archiver.finishEncoding()
        func unarchiver() throws -> NSKeyedUnarchiver {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            unarchiver.requiresSecureCoding = true
            return unarchiver
        }
        #expect(HKCumulativeQuantitySample(coder: try unarchiver()) == steps)
        #expect(HKQuantitySample(coder: try unarchiver()) == steps)
        #expect(HKDiscreteQuantitySample(coder: try unarchiver()) == nil)
    }

    @Test func anArchiveOfSomethingElseIsNoSample() throws {
        let text = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "sample"), requiringSecureCoding: true)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKSample.self, from: text)) == nil)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantitySample.self, from: text)) == nil)
    }

    /// Still `Sendable` (checked at compile time) across the `NSObject` change.
    @Test func theyStaySendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(HKObject.self)
        requireSendable(HKSample.self)
        requireSendable(HKQuantitySample.self)
        requireSendable(HKCorrelation.self)
    }
}

/// Apple spells State of Mind's enums both nested (`HKStateOfMind.Kind`) and flat
/// (`HKStateOfMindKind`); here both name one enum, HealthModel's generated one (issue 15).
@Suite(.timeLimit(.minutes(10))) struct StateOfMindEnumSpellingTests {
    @Test func bothSpellingsAreOneEnum() {
        let nested: HKStateOfMind.Kind = .dailyMood
        let flat: HKStateOfMindKind = nested
        #expect(flat == .dailyMood && HKStateOfMindKind.allCases.count == 2)
        let band: HKStateOfMindValenceClassification? = HKStateOfMind.ValenceClassification(valence: 0.5)
        #expect(band == .pleasant)
        #expect(HKStateOfMindValenceClassification(valence: 1.5) == nil)
        #expect(HKStateOfMind(date: Date(), kind: flat, valence: 0, labels: [], associations: []).kind == .dailyMood)
    }
}
