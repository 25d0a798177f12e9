public import HealthModel

extension ExportConversion {
    /// The most points an imported audiogram may list: past HealthKit's 30 the broker refuses it
    /// anyway, and stopping here keeps a hostile file from growing one element without bound.
    static let maxImportedAudiogramPoints = 64

    /// An `Audiogram` as an `HKAudiogramSample`: frequencies converted to Hz and sensitivities to
    /// dBHL from the units the file names; each ear given becomes an unmasked air-conduction test.
    /// HealthKit's rules (`AudiogramRules`) are the broker's to apply, as for an app's save.
    public static func sample(_ audiogram: ExportAudiogram) throws(ImportRefusal) -> ImportedSample {
        let header = audiogram.header
        guard header.type == HKDataTypeIdentifierAudiogram else {
            throw ImportRefusal(type: header.type, reason: "an Audiogram element of another type")
        }
        guard audiogram.points.count <= maxImportedAudiogramPoints else {
            throw ImportRefusal(type: header.type, reason: "more than \(maxImportedAudiogramPoints) sensitivity points")
        }
        var points: [AudiogramValue.Point] = []
        for point in audiogram.points {
            var tests: [AudiogramValue.Test] = []
            if !point.tests.isEmpty {
                // OpenHealthKit's own tests, masking and clamping included: they, not Apple's ear summary, are the point.
                guard point.tests.count <= maxImportedTestsPerPoint else {
                    throw ImportRefusal(type: header.type, reason: "more than \(maxImportedTestsPerPoint) tests at one frequency")
                }
                for test in point.tests { tests.append(try self.test(test, type: header.type)) }
            } else {
                for (measure, side) in [(point.leftEar, 0), (point.rightEar, 1)] {
                    guard let measure else { continue }
                    tests.append(AudiogramValue.Test(sensitivity: try amount(measure, in: .decibelHearingLevel(), type: header.type), side: side))
                }
            }
            points.append(AudiogramValue.Point(frequency: try amount(point.frequency, in: .hertz(), type: header.type), tests: tests))
        }
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .audiogram(AudiogramValue(points: points)), metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        // A point's tests join its identity only when it has some, so a file imported before
        // (Apple's points have none) is still recognized.
        addSyncIdentity(&sample, header, extra: audiogram.points.map { point in
            ([point.frequency.value, point.frequency.unit ?? "", point.leftEar?.value ?? "", point.rightEar?.value ?? ""] + point.tests.map {
                [$0.side, $0.sensitivity.value, $0.sensitivity.unit ?? "", $0.conductionType ?? "", $0.masked ?? "",
                 $0.clampingLowerBound ?? "", $0.clampingUpperBound ?? ""].joined(separator: ",")
            }).joined(separator: "/")
        })
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
    }

    /// A bound on the tests read at one frequency, well past the two (one per ear) `AudiogramRules`
    /// allow: those rules, run by healthd, refuse the rest as for an app's save; this only keeps a
    /// hostile file from growing one point without bound.
    static let maxImportedTestsPerPoint = 16

    /// `side` as a `SensitivityTest` writes it: `left`, `right`, or the raw value HealthKit would refuse.
    static func audiogramSideName(_ side: Int) -> String {
        switch side {
        case 0: "left"
        case 1: "right"
        default: "\(side)"
        }
    }

    /// One `SensitivityTest`: each field parsed as written, refused naming it when it does not
    /// parse; whether the values are allowed (range, clamping bounds, conduction type) is
    /// `AudiogramRules`' to say when healthd validates the sample, as for an app's save.
    private static func test(_ test: ExportSensitivityTest, type: String) throws(ImportRefusal) -> AudiogramValue.Test {
        let side: Int
        switch test.side {
        case "left": side = 0
        case "right": side = 1
        default:
            guard let raw = Int(test.side) else { throw ImportRefusal(type: type, reason: "a sensitivity test side that is not left or right") }
            side = raw
        }
        let conduction: Int
        if let text = test.conductionType {
            guard let raw = Int(text) else { throw ImportRefusal(type: type, reason: "a sensitivity test conductionType that is not a number") }
            conduction = raw
        } else {
            conduction = AudiogramRules.airConduction
        }
        let masked: Bool
        switch test.masked {
        case nil, "0": masked = false
        case "1": masked = true
        default: throw ImportRefusal(type: type, reason: "a sensitivity test masked value that is not 1 or 0")
        }
        func bound(_ text: String?) throws(ImportRefusal) -> Double? {
            guard let text else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw ImportRefusal(type: type, reason: "a sensitivity test clamping bound that is not a number")
            }
            return value
        }
        return AudiogramValue.Test(sensitivity: try amount(test.sensitivity, in: .decibelHearingLevel(), type: type), conductionType: conduction,
                                   masked: masked, side: side, clampingLowerBound: try bound(test.clampingLowerBound),
                                   clampingUpperBound: try bound(test.clampingUpperBound))
    }

    /// A number with its unit, in `unit`; refused when either does not parse or does not convert.
    private static func amount(_ measure: ExportMeasure, in unit: HKUnit, type: String) throws(ImportRefusal) -> Double {
        guard let value = Double(measure.value), value.isFinite else {
            throw ImportRefusal(type: type, reason: "a sensitivity point value that is not a number")
        }
        guard let unitText = measure.unit, let converted = try? HKQuantity(unit: HKUnit.parse(unitText), doubleValue: value).value(in: unit) else {
            throw ImportRefusal(type: type, reason: "a sensitivity point unit that is not \(unit.unitString) or convertible to it")
        }
        return converted
    }
}
