@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// ECG CSV files and HRV beat lists as Apple's export writes them, turned into electrocardiograms
/// and heartbeat series; the CSV written back reads as the same recording.
@Suite(.timeLimit(.minutes(10))) struct SeriesConversionTests {
    static let csv = """
        Name,Jane Appleseed
        Date of Birth,"Jan 1, 1980"
        Recorded Date,2023-11-14 20:10:00 -0800
        Classification,Atrial Fibrillation
        Symptoms,Rapid heartbeat
        Software Version,2
        Device,"Watch6,2"
        Sample Rate,512 hertz

        Lead,Lead I
        Unit,µV

        -20.5
        40.25
        0

        """

    @Test func anECGFileIsReadWithItsHeaderAndVoltages() throws {
        let ecg = try ElectrocardiogramCSV.read(Data(Self.csv.utf8), path: "electrocardiograms/ecg_2023-11-14.csv")
        #expect(ecg.recordedDate == Date(timeIntervalSince1970: 1_700_021_400))
        #expect(ecg.classification == "Atrial Fibrillation" && ecg.symptoms == "Rapid heartbeat" && ecg.device == "Watch6,2")
        #expect(ecg.sampleRate == 512 && ecg.unit == "µV" && ecg.voltages == [-20.5, 40.25, 0])

        let sample = try ExportConversion.sample(ecg).record
        guard case let .electrocardiogram(value) = sample.value else { Issue.record("\(sample.value)"); return }
        #expect(value.classification == 2 && value.symptomsStatus == 2 && value.samplingFrequency == 512 && value.voltageCount == 3)
        #expect(value.voltages == [-20.5e-6, 40.25e-6, 0])
        #expect(sample.endDate.timeIntervalSince(sample.startDate) == 3.0 / 512)
        _ = try SampleValidator.canonicalized(sample)
    }

    @Test func aWrittenECGFileReadsBackAsTheSameRecording() throws {
        let ecg = try ElectrocardiogramCSV.read(Data(Self.csv.utf8), path: "a.csv")
        let written = ElectrocardiogramCSV.write(ecg, timeZone: TimeZone(secondsFromGMT: -8 * 3600)!)
        var again = try ElectrocardiogramCSV.read(written, path: "a.csv")
        again.path = ecg.path
        #expect(again == ecg)
    }

    @Test(arguments: [
        ("Recorded Date,2023-11-14 20:10:00 -0800\n", "Sample Rate"),
        ("Sample Rate,512 hertz\n1\n", "Recorded Date"),
        ("Recorded Date,2023-11-14 20:10:00 -0800\nSample Rate,512 hertz\n", "no voltage"),
        ("Recorded Date,2023-11-14 20:10:00 -0800\nSample Rate,512 hertz\n\n1\nabc\n", "line 5"),
    ])
    func aBrokenECGFileIsRefusedSayingWhatIsMissing(text: String, says: String) {
        #expect {
            _ = try ElectrocardiogramCSV.read(Data(text.utf8), path: "x.csv")
        } throws: { error in
            "\(error)".contains(says) || { if case let ExportReadError.invalidElement(_, _, line, reason) = error {
                return "line \(line)".contains(says) || reason.contains(says) } else { return false } }()
        }
    }

    @Test(arguments: [("7:51:17.56 PM", 71_477.56), ("12:00:01.00 AM", 1), ("12:30:00 PM", 45_000), ("19:51:17.5", 71_477.5)])
    func beatTimesAreReadInEitherClock(text: String, seconds: Double) {
        #expect(abs((ExportConversion.timeOfDay(text) ?? -1) - seconds) < 1e-9)
    }

    /// The first beat sets the zone offset on the 15-minute grid; a series across local
    /// midnight keeps counting up.
    @Test(arguments: [-8 * 3600, 0, 5 * 3600 + 1800, 14 * 3600])
    func beatsBecomeOffsetsFromTheRecordsStartInAnyZone(offset: Int) throws {
        let start = Date(timeIntervalSince1970: 1_700_020_796)  // 23:59:56 at UTC-8 is 07:59:56 UTC
        let local = { (date: Date) -> String in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: offset)!
            let parts = calendar.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
            let hundredths = Int(((Double(parts.nanosecond ?? 0) / 1e9) * 100).rounded())
            return String(format: "%d:%02d:%02d.%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, hundredths)
        }
        let offsets = [1.5, 2.25, 4.75, 6.0]
        let header = ExportSampleHeader(type: HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue,
                                        source: ExportSource(name: "Watch", version: nil, device: nil), creationDate: nil,
                                        startDate: start, endDate: start.addingTimeInterval(5), metadata: [], line: 9)
        let record = ExportRecord(header: header, unit: "ms", value: "50",
                                  beats: offsets.map { ExportBeat(bpm: "60", time: local(start.addingTimeInterval($0))) })
        let hrv = try ExportConversion.sample(record).record
        let series = try #require(try ExportConversion.heartbeatSeries(of: record, hrv: hrv)).record
        guard case let .heartbeatSeries(value) = series.value else { Issue.record("\(series.value)"); return }
        let times = value.beats?.map(\.timeSinceSeriesStart) ?? []
        #expect(times.count == 4)
        for (time, expected) in zip(times, offsets) { #expect(abs(time - expected) < 1e-6, "\(times)") }
        #expect(series.endDate == start.addingTimeInterval(6))
        _ = try SampleValidator.canonicalized(series)
        #expect(series.metadata[HKMetadataKeySyncIdentifier] != hrv.metadata[HKMetadataKeySyncIdentifier])
    }
}

/// Numbers a hostile export or an app can store that once trapped converting to a whole number
/// (session 18 storage review): an ECG voltage of 1e300 µV stopped `healthctl import` computing the
/// recording's identity, and a heartbeat 1e-300 s after the one before stopped `healthctl export`
/// writing its rate. Both convert clamped now (`Int64(saturating:)`).
@Suite(.timeLimit(.minutes(10))) struct SeriesExtremeNumberTests {
    @Test(arguments: ["1e300", "-1e300", "1.7976931348623157e308", "9.3e18", "4.9e-324"])
    func anECGVoltageOfAnySizeConverts(voltage: String) throws {
        let text = "Recorded Date,2023-11-14 20:10:00 -0800\nSample Rate,512 hertz\n\n\(voltage)\n1\n"
        let ecg = try ElectrocardiogramCSV.read(Data(text.utf8), path: "x.csv")
        _ = try ExportConversion.sample(ecg).record
    }

    @Test(arguments: [1e-300, 4.9e-324, 1e-20, 0.5])
    func aHeartbeatRateOfAnySizeIsWritten(gap: Double) throws {
        let start = Date(timeIntervalSince1970: 1_714_543_200)
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue,
                                  startDate: start, endDate: start.addingTimeInterval(60),
                                  value: .quantity(40, unit: "ms"))
        let writer = ExportXMLWriter(timeZone: .gmt, unit: { PreferredUnitDefaults.unit(for: $0, in: .metric) })
        let beats = [Heartbeat(timeSinceSeriesStart: 0, precededByGap: false), Heartbeat(timeSinceSeriesStart: gap, precededByGap: false)]
        let xml = writer.record(sample, sourceName: "Watch", sourceVersion: nil, beats: beats)
        #expect(xml.contains("InstantaneousBeatsPerMinute"), "\(xml)")
        #expect(gap < 1e-17 ? xml.contains("bpm=\"\(Int64.max)\"") : !xml.contains("bpm=\"\(Int64.max)\""), "\(xml)")
    }
}
