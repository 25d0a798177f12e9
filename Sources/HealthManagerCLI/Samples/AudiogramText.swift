import HealthModel

/// How healthctl shows an audiogram: each frequency with each ear's dBHL, in Apple's names for
/// the sides, so a person reads it as the Health app's chart lists it. Used by the table, the CSV
/// export's detail column and `--json`.
enum AudiogramText {
    /// "500 Hz: left 20, right 25 dBHL; 1000 Hz: left 30 (masked) dBHL; …"; "no points" for none.
    static func detail(_ value: AudiogramValue) -> String {
        guard !value.points.isEmpty else { return "no points" }
        return value.points.map { point in
            let tests = point.tests.map { test in
                var text = "\(side(test.side)) \(NumberText.measurement(test.sensitivity))"
                if test.masked { text += " (masked)" }
                if test.isClamped { text += " (clamped \(bound(test.clampingLowerBound))…\(bound(test.clampingUpperBound)))" }
                return text
            }
            return "\(NumberText.measurement(point.frequency)) Hz: \(tests.joined(separator: ", ")) dBHL"
        }.joined(separator: "; ")
    }

    /// The count of points with its noun.
    static func count(_ value: AudiogramValue) -> (String, String) {
        ("\(value.points.count)", value.points.count == 1 ? "point" : "points")
    }

    /// `HKAudiogramSensitivityTestSide`'s case name.
    static func side(_ raw: Int) -> String {
        switch raw {
        case 0: "left"
        case 1: "right"
        default: "side \(raw)"
        }
    }

    private static func bound(_ value: Double?) -> String {
        value.map(NumberText.measurement) ?? ""
    }
}
