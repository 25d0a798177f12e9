import Foundation
import Testing
@testable import HealthKit

/// Apps persist a sample's device and source revision the way they persist anchors: Apple's
/// `HKDevice`, `HKSource` and `HKSourceRevision` are `NSObject`s conforming to `NSSecureCoding`
/// (https://developer.apple.com/documentation/healthkit/hkdevice — "conforms to NSSecureCoding";
/// likewise /hksource and /hksourcerevision), archived with
/// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)` and read back with
/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`, which answers nothing for an archive of
/// another class (https://developer.apple.com/documentation/foundation/nssecurecoding).
/// Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct SourceDeviceCodingTests {
    let watch = HKDevice(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,1",
                         firmwareVersion: nil, softwareVersion: "10.1", localIdentifier: nil, udiDeviceIdentifier: "(01)0019")
    let source = HKSource(name: "Walk", bundleIdentifier: "org.example.walk")

    @Test func aDeviceSurvivesSecureKeyedArchivingWithItsNilProperties() throws {
        let restored = try SecureArchive.roundTrip(watch)
        #expect(restored == watch)
        #expect(restored.firmwareVersion == nil && restored.localIdentifier == nil)
        #expect(restored.udiDeviceIdentifier == "(01)0019")
        #expect(Set([watch, restored]).count == 1)
    }

    @Test func aDeviceWithNoPropertiesRoundTrips() throws {
        let empty = HKDevice(name: nil, manufacturer: nil, model: nil, hardwareVersion: nil, firmwareVersion: nil,
                             softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
        #expect(try SecureArchive.roundTrip(empty) == empty)
        #expect(try SecureArchive.roundTrip(empty) != watch)
    }

    @Test func aSourceSurvivesSecureKeyedArchiving() throws {
        let restored = try SecureArchive.roundTrip(source)
        #expect(restored == source)
        #expect(restored.name == "Walk" && restored.bundleIdentifier == "org.example.walk")
        #expect(Set([source, restored]).count == 1)
    }

    @Test func aRevisionKeepsItsSourceVersionProductTypeAndSystemVersion() throws {
        let revision = HKSourceRevision(source: source, version: "2.1", productType: "iPhone14,2",
                                        operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 1))
        let restored = try SecureArchive.roundTrip(revision)
        #expect(restored == revision)
        #expect(restored.source == source)
        #expect(restored.operatingSystemVersion.minorVersion == 4)
        #expect(Set([revision, restored]).count == 1)
    }

    @Test func aRevisionWithoutVersionStaysWithoutOne() throws {
        let revision = HKSourceRevision(source: source, version: nil)
        let restored = try SecureArchive.roundTrip(revision)
        #expect(restored.version == nil && restored.productType == nil)
        #expect(restored == revision)
        #expect(restored != HKSourceRevision(source: source, version: ""))
    }

    /// Equality is by value, as Apple's; `isEqual(_:)`, `==`, `hash` and `Set` agree.
    @Test func equalityIsByValueNotIdentity() {
        let again = HKSource(name: "Walk", bundleIdentifier: "org.example.walk")
        #expect(again == source && again.isEqual(source) && again.hash == source.hash)
        #expect(HKSource(name: "Run", bundleIdentifier: "org.example.walk") != source)
        #expect(HKSourceRevision(source: again, version: "1") == HKSourceRevision(source: source, version: "1"))
        #expect(HKSourceRevision(source: again, version: "1") != HKSourceRevision(source: source, version: "2"))
    }

    /// Apple's unarchiver answers nothing (it throws) for an archive of something else. Here only
    /// archives of plain values can be checked: for an archived object of another class,
    /// swift-corelibs-foundation traps inside `unarchivedObject(ofClass:from:)` before any
    /// HealthKit code runs (its `_isClassAllowed` calls `fatalError`) — a Foundation limit the SDK
    /// cannot reach, which is why a revision keeps its source's fields flat (see below).
    @Test func anArchiveOfSomethingElseIsNoObject() throws {
        let text = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "org.example.walk"), requiringSecureCoding: true)
        let number = try NSKeyedArchiver.archivedData(withRootObject: NSNumber(value: 7), requiringSecureCoding: true)
        for archive in [text, number] {
            #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKSource.self, from: archive)) == nil)
            #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKDevice.self, from: archive)) == nil)
            #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKSourceRevision.self, from: archive)) == nil)
        }
    }

    /// An archive whose fields hold the wrong kind of value (here a number where a string
    /// belongs) decodes as nothing rather than as a half-filled object.
    @Test func aTamperedArchiveIsNoObject() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(NSNumber(value: 7), forKey: "name")
        archiver.encode(NSString(string: "org.example.walk"), forKey: "bundleIdentifier")
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        #expect(HKSource(coder: unarchiver) == nil)
        #expect(HKDevice(coder: unarchiver) == nil)
        #expect(HKSourceRevision(coder: unarchiver) == nil)
    }

    /// A revision archive whose source is intact but whose version is not a string decodes as
    /// nothing; so does one whose source fields are missing.
    @Test func aRevisionWithATamperedFieldIsNoRevision() throws {
        let wrongVersion = NSKeyedArchiver(requiringSecureCoding: true)
        source.encode(with: wrongVersion)
        wrongVersion.encode(NSNumber(value: 2), forKey: "version")
        wrongVersion.finishEncoding()
        let noSource = NSKeyedArchiver(requiringSecureCoding: true)
        noSource.encode(NSString(string: "2.1"), forKey: "version")
        noSource.finishEncoding()
        for data in [wrongVersion.encodedData, noSource.encodedData] {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = true
            #expect(HKSourceRevision(coder: unarchiver) == nil)
        }
    }

    /// The revision nests no object, so the source's fields are what an intact archive must hold.
    @Test func aRevisionArchiveHoldsTheSourceFieldsFlat() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        HKSourceRevision(source: source, version: "2.1").encode(with: archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        #expect(unarchiver.decodeObject(of: NSString.self, forKey: "bundleIdentifier") == "org.example.walk")
        #expect(HKSourceRevision(coder: unarchiver)?.version == "2.1")
    }
}
