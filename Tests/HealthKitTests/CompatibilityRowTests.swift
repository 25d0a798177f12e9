import Foundation
@testable import HealthKit
import HealthWire
import Testing

/// Rows of docs/healthkit-compatibility.md closed in session 10 that involve no stored data.
///
/// - `HKSample.hasUndeterminedDuration` (developer.apple.com/documentation/healthkit/hksample/hasundeterminedduration):
///   true exactly when `endDate` is `distantFuture`.
/// - `HKClinicalType(_:)` (…/hkclinicaltype/init(_:)): "Creates a clinical type using the provided
///   identifier" — the same type `clinicalType(forIdentifier:)` returns.
/// - `Notification.Name.HKUserPreferencesDidChange` (…/nsnotification/name-swift.struct/hkuserpreferencesdidchange):
///   Apple's name, so observers written for it compile and register.
/// - `HKDetailedCDAValidationErrorKey` (…/hkdetailedcdavalidationerrorkey): "A key for accessing
///   validation error information from an error object's user information dictionary" — set on the
///   error `HKCDADocumentSample(data:start:end:metadata:)` throws for a document that is not CDA.
@Suite(.timeLimit(.minutes(10))) struct CompatibilityRowTests {
    @Test func onlyASampleEndingInTheDistantFutureHasAnUndeterminedDuration() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func sample(ending end: Date) -> HKQuantitySample {
            HKQuantitySample(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 60),
                             start: start, end: end)
        }
        #expect(sample(ending: .distantFuture).hasUndeterminedDuration)
        #expect(!sample(ending: start).hasUndeterminedDuration)
        #expect(!sample(ending: start.addingTimeInterval(60)).hasUndeterminedDuration)
        // The latest date short of distantFuture is still a determined end.
        #expect(!sample(ending: Date.distantFuture.addingTimeInterval(-1)).hasUndeterminedDuration)
    }

    @Test(arguments: [HKClinicalTypeIdentifier.allergyRecord, .clinicalNoteRecord, .conditionRecord, .immunizationRecord,
                      .labResultRecord, .medicationRecord, .procedureRecord, .vitalSignRecord, .coverageRecord])
    func theClinicalTypeInitializerIsTheRegisteredType(_ identifier: HKClinicalTypeIdentifier) throws {
        let registered = try #require(HKObjectType.clinicalType(forIdentifier: identifier))
        #expect(HKClinicalType(identifier) == registered)
        #expect(HKClinicalType(identifier).identifier == identifier.rawValue)
    }

    @Test func anInvalidDocumentsErrorCarriesTheValidationDetails() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let error = #expect(throws: HKError.self) {
            _ = try HKCDADocumentSample(data: Data("<ClinicalDocument".utf8), start: start, end: start, metadata: nil)
        }
        #expect(error?.code == .errorInvalidArgument)
        let details = error?.userInfo[HKDetailedCDAValidationErrorKey] as? String
        #expect(details?.isEmpty == false, "\(String(describing: error?.userInfo))")
    }

    /// `HKObject.source` (developer.apple.com/documentation/healthkit/hkobject/source, deprecated in
    /// iOS 9, still shipped): the source of the object's source revision — the broker's record for
    /// a fetched object, this process for one not saved.
    @Test func theDeprecatedSourceIsTheSourceRevisionsSource() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: start,
                                  endDate: start.addingTimeInterval(60), value: .quantity(12, unit: "count"),
                                  source: SourceRecord(bundleIdentifier: "org.example.walk", name: "Walk"))
        let fetched = try HKSample.fetched(record)
        #expect(fetched.source == fetched.sourceRevision.source)
        #expect(fetched.source.bundleIdentifier == "org.example.walk")
        #expect(fetched.source.name == "Walk")
        let unsaved = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                       start: start, end: start)
        #expect(unsaved.source == unsaved.sourceRevision.source)
    }

    /// Apple's `HKQuery` is an `NSObject` subclass (…/hkquery: "class HKQuery : NSObject") that does
    /// not override equality: code that keeps queries in `[NSObject]` or compares them with
    /// `isEqual` gets identity.
    @Test func queriesAreNSObjectsEqualOnlyToThemselves() {
        let steps = HKQuantityType(.stepCount)
        let first = HKSampleQuery(sampleType: steps, predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }
        let second = HKSampleQuery(sampleType: steps, predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }
        let objects: [NSObject] = [first, second, HKObserverQuery(sampleType: steps, predicate: nil) { _, done, _ in done() }]
        #expect(objects[0].isEqual(first))
        #expect(!objects[0].isEqual(second))
        #expect(!objects[1].isEqual(objects[2]))
    }

    /// …/hkhealthstore/dateofbirth() (deprecated in iOS 10): the birthdate as a date; nil — a
    /// thrown error in Swift — when none is set or readable. Read through the store's
    /// `dateOfBirthComponents()`, whose healthd path CharacteristicsEndToEndTests covers.
    @Test func theDeprecatedDateOfBirthIsTheStartOfTheComponentsDay() throws {
        final class Birthday: HKHealthStore, @unchecked Sendable {
            let components: DateComponents
            init(_ components: DateComponents) {
                self.components = components
                super.init()
            }
            override func dateOfBirthComponents() throws -> DateComponents { components }
        }
        let date = try Birthday(DateComponents(calendar: Calendar(identifier: .gregorian), year: 1984, month: 2, day: 29)).dateOfBirth()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let read = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        #expect([read.year, read.month, read.day, read.hour, read.minute, read.second] == [1984, 2, 29, 0, 0, 0])
        for unset in [DateComponents(calendar: Calendar(identifier: .gregorian)), DateComponents(year: 1984, month: 2)] {
            let error = #expect(throws: HKError.self) { try Birthday(unset).dateOfBirth() }
            #expect(error?.code == .errorNoData)
        }
    }

    @Test func thePreferencesNotificationHasApplesName() {
        #expect(Notification.Name.HKUserPreferencesDidChange.rawValue == "HKUserPreferencesDidChangeNotification")
        #expect(HKUserPreferencesDidChangeNotification == "HKUserPreferencesDidChangeNotification")
        // An observer registered as Apple's sample code does it hears a post of that name.
        let center = NotificationCenter()
        let store = HKHealthStore()
        let heard = Heard()
        let token = center.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in heard.mark() }
        center.post(name: .HKUserPreferencesDidChange, object: store)
        center.removeObserver(token)
        #expect(heard.count == 1)
    }
}

private final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    func mark() { lock.withLock { calls += 1 } }
    var count: Int { lock.withLock { calls } }
}
