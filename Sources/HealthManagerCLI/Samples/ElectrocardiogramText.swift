import HealthModel

/// How healthctl names an ECG's classification: the words Apple's Health app shows.
enum ElectrocardiogramText {
    static func classification(_ raw: Int) -> String {
        switch raw {
        case 0: "Not set"
        case 1: "Sinus rhythm"
        case 2: "Atrial fibrillation"
        case 3: "Inconclusive: low heart rate"
        case 4: "Inconclusive: high heart rate"
        case 5: "Inconclusive: poor recording"
        case 6: "Inconclusive"
        default: "Unrecognized"
        }
    }
}
