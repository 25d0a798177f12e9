import HealthModel

/// How healthctl names a state of mind's parts: HealthKit's Swift case names (what an app author
/// searches for) for labels and associations, and the Health app's words for the valence bands.
enum StateOfMindText {
    static func kind(_ raw: Int) -> String {
        switch raw {
        case 1: "momentary emotion"
        case 2: "daily mood"
        default: "kind \(raw)"
        }
    }

    static func classification(_ valence: Double) -> String {
        guard let band = StateOfMindValue.classification(forValence: valence) else { return "Out of range" }
        return ["Very unpleasant", "Unpleasant", "Slightly unpleasant", "Neutral", "Slightly pleasant", "Pleasant",
                "Very pleasant"][band - 1]
    }

    /// Indexed by raw value − 1, in HealthKit's order (`StateOfMindValue.labels`).
    static let labelNames = [
        "amazed", "amused", "angry", "anxious", "ashamed", "brave", "calm", "content", "disappointed", "discouraged",
        "disgusted", "embarrassed", "excited", "frustrated", "grateful", "guilty", "happy", "hopeless", "irritated",
        "jealous", "joyful", "lonely", "passionate", "peaceful", "proud", "relieved", "sad", "scared", "stressed",
        "surprised", "worried", "annoyed", "confident", "drained", "hopeful", "indifferent", "overwhelmed", "satisfied",
    ]

    /// Indexed by raw value − 1 (`StateOfMindValue.associations`).
    static let associationNames = [
        "community", "currentEvents", "dating", "education", "family", "fitness", "friends", "health", "hobbies",
        "identity", "money", "partner", "selfCare", "spirituality", "tasks", "travel", "work", "weather",
    ]

    static func label(_ raw: Int) -> String { name(raw, in: labelNames) }
    static func association(_ raw: Int) -> String { name(raw, in: associationNames) }

    /// "momentary emotion; labels happy, calm; associations work" — what the one-line views show
    /// beside the valence.
    static func detail(_ value: StateOfMindValue) -> String {
        var parts = [kind(value.kind)]
        if !value.labels.isEmpty { parts.append("labels " + value.labels.map(label).joined(separator: ", ")) }
        if !value.associations.isEmpty {
            parts.append("associations " + value.associations.map(association).joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    private static func name(_ raw: Int, in names: [String]) -> String {
        names.indices.contains(raw - 1) ? names[raw - 1] : "\(raw)"
    }
}
