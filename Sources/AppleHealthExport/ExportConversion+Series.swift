public import Foundation
public import HealthModel

/// Series in an export: ECG CSV files become `HKElectrocardiogram`s, and an HRV record's beat
/// list (`InstantaneousBeatsPerMinute`) a heartbeat series beside the HRV sample, the pair
/// Apple Watch saves together.
extension ExportConversion {
    /// The source Apple's ECG app records its samples under; the CSV names none.
    public static let electrocardiogramSourceName = "ECG"

    /// Apple's CSV classification words → `HKElectrocardiogram.Classification` raw values. The
    /// "Heart Rate Over/Under" forms name the inconclusive high/low results.
    static func classification(_ text: String) -> Int {
        let lower = text.lowercased()
        if lower.isEmpty { return 0 }
        if lower.contains("sinus") { return 1 }
        if lower.contains("atrial") || lower.contains("afib") { return 2 }
        if lower.contains("under") || lower.contains("low heart") { return 3 }
        if lower.contains("over") || lower.contains("high heart") { return 4 }
        if lower.contains("poor") { return 5 }
        if lower.contains("inconclusive") { return 6 }
        return 100
    }

    /// The words written back for a classification (the inverse of `classification(_:)`).
    public static func classificationText(_ raw: Int) -> String {
        switch raw {
        case 0: ""
        case 1: "Sinus Rhythm"
        case 2: "Atrial Fibrillation"
        case 3: "Heart Rate Under 50"
        case 4: "Heart Rate Over 120"
        case 5: "Poor Recording"
        case 6: "Inconclusive"
        default: "Unrecognized"
        }
    }

    /// An ECG file as an electrocardiogram sample: voltages converted to volts, the span
    /// `count / sampleRate` from the recorded date, and a sync identity from the file's content.
    public static func sample(_ ecg: ExportElectrocardiogram) throws(ImportRefusal) -> ImportedSample {
        let type = HKElectrocardiogramTypeIdentifier
        // Divided, not multiplied by 1e-6: the quotient is the correctly rounded volts, the same
        // double as the decimal µV value written in volts.
        let perVolt: Double
        switch ecg.unit.trimmingCharacters(in: .whitespaces) {
        case "µV", "μV", "uV": perVolt = 1e6
        case "mV": perVolt = 1e3
        case "V": perVolt = 1
        default: throw ImportRefusal(type: type, reason: "voltages in an unknown unit \(ecg.unit.prefix(20))")
        }
        let voltages = ecg.voltages.map { $0 / perVolt }
        let symptoms = ecg.symptoms.trimmingCharacters(in: .whitespaces)
        let status = symptoms.isEmpty ? 0 : (symptoms.lowercased() == "none" ? 1 : 2)
        let value = ElectrocardiogramValue(classification: classification(ecg.classification), symptomsStatus: status,
                                           averageHeartRate: nil, samplingFrequency: ecg.sampleRate,
                                           voltageCount: voltages.count, voltages: voltages)
        let end = ecg.recordedDate.addingTimeInterval(Double(voltages.count) / ecg.sampleRate)
        let device = ecg.device.map { DeviceRecord(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: $0) }
        var metadata: [String: MetadataValue] = [:]
        // From values, not spellings, so an ECG exported here and imported again (other words for
        // the classification, other digits for a voltage) is recognized as the same recording.
        let identity = [type, "\(ecg.recordedDate.microsecondsSince1970)", "\(value.classification)", ecg.sampleRate.description,
                        "\(voltages.count)", voltages.prefix(64).map { "\(Int64(saturating: $0 * 1e9))" }.joined(separator: ",")]
        metadata[HKMetadataKeySyncIdentifier] = .string(syncPrefix + StableHash.hex(identity.joined(separator: "\u{1F}")))
        metadata[HKMetadataKeySyncVersion] = .number(1)
        let record = SampleRecord(uuid: placeholderUUID(), typeIdentifier: type, startDate: ecg.recordedDate, endDate: end,
                                  value: .electrocardiogram(value), metadata: metadata, device: device)
        return ImportedSample(record: record, sourceName: electrocardiogramSourceName, sourceVersion: ecg.softwareVersion, routes: [])
    }

    /// The ECG file written back for a stored electrocardiogram and its voltages (volts): Apple's
    /// CSV in µV, named as the Health app names them — `ecg_<day>.csv`, then `ecg_<day>_1.csv`, …
    /// for the `sameDay`-th further ECG of that day.
    public static func electrocardiogramFile(_ sample: SampleRecord, voltages: [Double], timeZone: TimeZone, sameDay: Int)
        -> (fileName: String, ecg: ExportElectrocardiogram)? {
        guard case let .electrocardiogram(value) = sample.value, let rate = value.samplingFrequency else { return nil }
        let name = "ecg_\(electrocardiogramDay(sample, timeZone: timeZone))\(sameDay > 0 ? "_\(sameDay)" : "").csv"
        let symptoms = ["", "None", "Present"][max(0, min(2, value.symptomsStatus))]
        let ecg = ExportElectrocardiogram(path: "electrocardiograms/" + name, recordedDate: sample.startDate,
                                          classification: classificationText(value.classification), symptoms: symptoms,
                                          softwareVersion: sample.source?.version, device: sample.device?.hardwareVersion,
                                          sampleRate: rate, lead: "Lead I", unit: "µV", voltages: voltages.map { $0 * 1e6 })
        return (name, ecg)
    }

    /// `YYYY-MM-DD` of an ECG's start in `timeZone`, the day its file is named after.
    public static func electrocardiogramDay(_ sample: SampleRecord, timeZone: TimeZone) -> String {
        String(ExportDate.format(sample.startDate, in: timeZone).prefix(10))
    }

    /// The heartbeat series an HRV record's beat list describes, or nil when it lists none.
    /// The export writes each beat as a local time of day (`7:51:17.56 PM`, or 24-hour) without
    /// date or zone; the zone offset is recovered from the first beat, which Apple Watch records
    /// within seconds of the sample's start: the offset on the 15-minute grid that puts it
    /// closest after the start. Later beats follow by their difference from the first.
    public static func heartbeatSeries(of record: ExportRecord, hrv: SampleRecord) throws(ImportRefusal) -> ImportedSample? {
        guard !record.beats.isEmpty else { return nil }
        let type = HKDataTypeIdentifierHeartbeatSeries
        var times: [Double] = []
        for beat in record.beats {
            guard let time = timeOfDay(beat.time) else {
                throw ImportRefusal(type: type, reason: "a beat time is not a time of day (line \(record.header.line))")
            }
            times.append(time)
        }
        let day = 86_400.0
        let startUTC = record.header.startDate.timeIntervalSince1970.truncatingRemainder(dividingBy: day)
        let raw = (times[0] - startUTC).truncatingRemainder(dividingBy: day)
        let grid = 900.0
        var offset = (raw / grid).rounded(.down) * grid
        var lead = raw - offset
        // Normalize the zone offset to −12 h … +14 h; the lead (start → first beat) stays < 15 min.
        if offset > 14 * 3600 { offset -= day } else if offset < -12 * 3600 { offset += day }
        if lead < 0 { lead += grid }
        var beats: [Heartbeat] = []
        var previousElapsed = 0.0
        for time in times {
            var elapsed = (time - times[0]).truncatingRemainder(dividingBy: day)
            if elapsed < 0 { elapsed += day }  // a series across local midnight
            guard elapsed >= previousElapsed else {
                throw ImportRefusal(type: type, reason: "beats out of time order (line \(record.header.line))")
            }
            previousElapsed = elapsed
            // To the microsecond (the store's resolution for dates): the day-sized intermediate
            // values above leave noise in the last bits that would differ between two imports
            // of the same beat written from different dates.
            beats.append(Heartbeat(timeSinceSeriesStart: ((lead + elapsed) * 1e6).rounded() / 1e6, precededByGap: false))
        }
        // Export dates are whole seconds: the last beat may fall just after the stated end.
        let lastBeat = hrv.startDate.addingTimeInterval(beats.last?.timeSinceSeriesStart ?? 0)
        var metadata: [String: MetadataValue] = [:]
        if case let .string(sync)? = hrv.metadata[HKMetadataKeySyncIdentifier] {
            metadata[HKMetadataKeySyncIdentifier] = .string(sync + ":heartbeats")
            metadata[HKMetadataKeySyncVersion] = hrv.metadata[HKMetadataKeySyncVersion] ?? .number(1)
        }
        let series = SampleRecord(uuid: placeholderUUID(), typeIdentifier: type, startDate: hrv.startDate, endDate: max(hrv.endDate, lastBeat),
                                  value: .heartbeatSeries(HeartbeatSeriesValue(beats: beats)), metadata: metadata, device: hrv.device)
        return ImportedSample(record: series, sourceName: record.header.source.name, sourceVersion: record.header.source.version, routes: [])
    }

    /// "7:51:17.56 PM", "07:51:17.56" or "19:51:17" → seconds since midnight.
    static func timeOfDay(_ text: String) -> Double? {
        var clock = text.trimmingCharacters(in: .whitespaces)
        var addHours = 0.0
        let upper = clock.uppercased()
        if upper.hasSuffix("AM") || upper.hasSuffix("PM") {
            addHours = upper.hasSuffix("PM") ? 12 : 0
            clock = String(clock.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        let parts = clock.split(separator: ":")
        guard parts.count == 3, let hours = Double(parts[0]), let minutes = Double(parts[1]), let seconds = Double(parts[2]),
              hours >= 0, hours < 24, minutes >= 0, minutes < 60, seconds >= 0, seconds < 61 else { return nil }
        var hour = hours
        if addHours > 0 || upper.hasSuffix("AM") {
            guard hours >= 1, hours <= 12 else { return nil }
            hour = hours.truncatingRemainder(dividingBy: 12) + addHours
        }
        return hour * 3600 + minutes * 60 + seconds
    }
}
