import ArgumentParser

/// Parsing and completion for arguments that name a health type; the parsed value is the
/// HealthKit identifier.
enum HealthTypeArgument {
    static func identifier(_ name: String) throws -> String {
        try TypeNameResolver.registry.resolve(name)
    }

    static let completion = CompletionKind.list(TypeNameResolver.registry.completionNames)

    static let valueHelp = "a HealthKit identifier (HKQuantityTypeIdentifierHeartRate) or short name (heartRate, heart-rate)"
}
