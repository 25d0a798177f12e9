import ArgumentParser
import HealthModel

/// Parsing and completion for arguments that name a characteristic type (dateOfBirth,
/// biological-sex, HKCharacteristicTypeIdentifierBloodType, …); the parsed value is the identifier.
enum CharacteristicTypeArgument {
    static let resolver = TypeNameResolver(
        identifiers: HKObjectType.allTypes.filter { $0 is HKCharacteristicType }.map(\.identifier))

    static func identifier(_ name: String) throws -> String {
        try resolver.resolve(name)
    }

    static let completion = CompletionKind.list(resolver.completionNames)

    static let valueHelp = "dateOfBirth, biologicalSex, bloodType, fitzpatrickSkinType, wheelchairUse or activityMoveMode"
}
