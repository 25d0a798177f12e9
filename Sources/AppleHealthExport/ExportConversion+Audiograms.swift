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
            for (measure, side) in [(point.leftEar, 0), (point.rightEar, 1)] {
                guard let measure else { continue }
                tests.append(AudiogramValue.Test(sensitivity: try amount(measure, in: .decibelHearingLevel(), type: header.type), side: side))
            }
            points.append(AudiogramValue.Point(frequency: try amount(point.frequency, in: .hertz(), type: header.type), tests: tests))
        }
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .audiogram(AudiogramValue(points: points)), metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        addSyncIdentity(&sample, header, extra: audiogram.points.map {
            [$0.frequency.value, $0.frequency.unit ?? "", $0.leftEar?.value ?? "", $0.rightEar?.value ?? ""].joined(separator: "/")
        })
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
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
