public import Foundation

/// One ECG as Apple Health's export writes it: a CSV file under `electrocardiograms/`
/// (`ecg_2020-09-24.csv`) with a header of `Key,Value` lines, a blank line, then one voltage per
/// line in the header's unit (µV). Values stay as the file spells them, except numbers.
public struct ExportElectrocardiogram: Sendable, Equatable {
    /// The file's path inside the export, for messages.
    public var path: String
    public var recordedDate: Date
    /// "Sinus Rhythm", "Atrial Fibrillation", "Inconclusive", … as written.
    public var classification: String
    /// The symptoms the user chose, as written; empty when none were recorded.
    public var symptoms: String
    public var softwareVersion: String?
    public var device: String?
    /// Hertz.
    public var sampleRate: Double
    public var lead: String?
    /// The unit of `voltages` as written (`µV`).
    public var unit: String
    public var voltages: [Double]

    public init(path: String, recordedDate: Date, classification: String, symptoms: String, softwareVersion: String?,
                device: String?, sampleRate: Double, lead: String?, unit: String, voltages: [Double]) {
        self.path = path
        self.recordedDate = recordedDate
        self.classification = classification
        self.symptoms = symptoms
        self.softwareVersion = softwareVersion
        self.device = device
        self.sampleRate = sampleRate
        self.lead = lead
        self.unit = unit
        self.voltages = voltages
    }
}

/// Reads and writes Apple's ECG CSV. The header keys are the English ones Apple writes
/// (`Recorded Date`, `Classification`, `Symptoms`, `Software Version`, `Device`, `Sample Rate`,
/// `Lead`, `Unit`; `Name` and `Date of Birth` are read past — the store keeps them as
/// characteristics, not per ECG). A file missing the recorded date, the sample rate or any
/// voltage, or with a value that is not a number, is refused with its line.
public enum ElectrocardiogramCSV {
    /// Larger than any Apple Watch recording (30 s at 512 Hz is ~15,400 lines of ~8 bytes);
    /// checked before the file is read, so a huge file is refused rather than loaded.
    public static let maximumFileBytes = 4 << 20

    public static func read(_ data: Data, path: String) throws(ExportReadError) -> ExportElectrocardiogram {
        guard data.count <= maximumFileBytes else {
            throw .invalidElement(file: path, element: "ECG", line: 0, reason: "larger than \(maximumFileBytes) bytes")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidElement(file: path, element: "ECG", line: 1, reason: "not UTF-8 text")
        }
        var header: [String: String] = [:]
        var voltages: [Double] = []
        var inVoltages = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            // Header lines start with a letter; the voltages are numbers ("-47.865").
            if !inVoltages, let first = trimmed.unicodeScalars.first, CharacterSet.letters.contains(first) {
                let (key, value) = split(trimmed)
                header[key] = value
                continue
            }
            inVoltages = true
            guard let voltage = Double(trimmed.replacingOccurrences(of: ",", with: ".")), voltage.isFinite else {
                throw .invalidElement(file: path, element: "ECG", line: index + 1, reason: "a voltage is not a number")
            }
            voltages.append(voltage)
        }
        guard let dateText = header["Recorded Date"], let recorded = ExportDate.parse(dateText) else {
            throw .invalidElement(file: path, element: "ECG", line: 0, reason: "no readable Recorded Date line")
        }
        guard let rateText = header["Sample Rate"],
              let rate = Double(rateText.split(separator: " ").first.map(String.init) ?? ""), rate > 0, rate.isFinite else {
            throw .invalidElement(file: path, element: "ECG", line: 0, reason: "no readable Sample Rate line (e.g. \"512 hertz\")")
        }
        guard !voltages.isEmpty else {
            throw .invalidElement(file: path, element: "ECG", line: 0, reason: "no voltage measurements")
        }
        return ExportElectrocardiogram(path: path, recordedDate: recorded, classification: header["Classification"] ?? "",
                                       symptoms: header["Symptoms"] ?? "", softwareVersion: header["Software Version"],
                                       device: header["Device"], sampleRate: rate, lead: header["Lead"],
                                       unit: header["Unit"] ?? "µV", voltages: voltages)
    }

    /// The file Apple writes for `ecg`, recorded in `timeZone`.
    public static func write(_ ecg: ExportElectrocardiogram, timeZone: TimeZone) -> Data {
        var lines = [
            "Recorded Date,\(ExportDate.format(ecg.recordedDate, in: timeZone))",
            "Classification,\(quoted(ecg.classification))",
            "Symptoms,\(quoted(ecg.symptoms))",
            "Software Version,\(quoted(ecg.softwareVersion ?? ""))",
            "Device,\(quoted(ecg.device ?? ""))",
            "Sample Rate,\(ExportXMLText.number(ecg.sampleRate)) hertz",
            "",
            "Lead,\(quoted(ecg.lead ?? "Lead I"))",
            "Unit,\(ecg.unit)",
            "",
        ]
        lines += ecg.voltages.map { ExportXMLText.number($0) }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `Key,Value` or `Key,"Value, with comma"`.
    private static func split(_ line: String) -> (String, String) {
        guard let comma = line.firstIndex(of: ",") else { return (line, "") }
        var value = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return (String(line[..<comma]), value)
    }

    private static func quoted(_ value: String) -> String {
        value.contains(",") || value.contains("\"") ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
