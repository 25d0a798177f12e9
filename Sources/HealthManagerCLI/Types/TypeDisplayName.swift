/// Names for HealthKit type identifiers that a person reads: the identifier without its
/// `HK…TypeIdentifier` prefix ("HeartRate") and that split into words ("Heart Rate").
public enum TypeDisplayName {
    /// "HKQuantityTypeIdentifierHeartRate" → "HeartRate"; "HKWorkoutTypeIdentifier" → "Workout";
    /// "HKDataTypeIdentifierHeartbeatSeries" → "HeartbeatSeries"; Apple's one identifier without
    /// the marker, "HKDataTypeStateOfMind" → "StateOfMind". Anything else is returned unchanged.
    public static func shortName(of identifier: String) -> String {
        guard identifier.hasPrefix("HK"), let marker = identifier.range(of: "TypeIdentifier") else {
            let dataType = "HKDataType"
            return identifier.hasPrefix(dataType) && identifier.count > dataType.count ? String(identifier.dropFirst(dataType.count)) : identifier
        }
        let suffix = identifier[marker.upperBound...]
        if !suffix.isEmpty { return String(suffix) }
        // The workout, route and activity-summary identifiers carry their name before the marker.
        let kind = identifier[identifier.index(identifier.startIndex, offsetBy: 2)..<marker.lowerBound]
        return kind.isEmpty ? identifier : String(kind)
    }

    /// "Heart Rate", "VO2 Max", "UV Exposure", "Dietary Vitamin B12", "Forced Expiratory Volume 1".
    public static func words(of identifier: String) -> String {
        splitCamelCase(shortName(of: identifier))
    }

    /// A space goes before an uppercase letter that follows a lowercase letter or a digit,
    /// before the last capital of an acronym that starts a word ("UVExposure"), and before a
    /// number that follows a lowercase letter. Digits after a capital stay with it ("B12", "VO2").
    static func splitCamelCase(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    (character.isUppercase && (previous.isLowercase || previous.isNumber))
                    || (character.isUppercase && previous.isUppercase && next?.isLowercase == true)
                    || (character.isNumber && previous.isLowercase)
                if startsWord { result.append(" ") }
            }
            result.append(character)
        }
        return result
    }
}
