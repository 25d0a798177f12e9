import HealthManagerCLI
import HealthModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct TypeNameResolverTests {
    let resolver = TypeNameResolver.registry

    @Test(arguments: ["HKQuantityTypeIdentifierHeartRate", "heartRate", "HeartRate", "heart-rate", "heart_rate",
                      "Heart Rate", "HEARTRATE", "hkquantitytypeidentifierheartrate"])
    func spellingsOfHeartRate(name: String) throws {
        #expect(try resolver.resolve(name) == "HKQuantityTypeIdentifierHeartRate")
    }

    @Test func typesOfEveryKindResolveByShortName() throws {
        #expect(try resolver.resolve("sleep-analysis") == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(try resolver.resolve("bloodPressure") == "HKCorrelationTypeIdentifierBloodPressure")
        #expect(try resolver.resolve("dateOfBirth") == "HKCharacteristicTypeIdentifierDateOfBirth")
        #expect(try resolver.resolve("workout") == "HKWorkoutTypeIdentifier")
        #expect(try resolver.resolve("vo2max") == "HKQuantityTypeIdentifierVO2Max")
    }

    /// Short names are only useful if each names one type across all kinds.
    @Test func everyRegistryTypeResolvesFromItsShortNameAndIdentifier() throws {
        for type in HKObjectType.allTypes {
            #expect(try resolver.resolve(TypeDisplayName.shortName(of: type.identifier)) == type.identifier)
            #expect(try resolver.resolve(type.identifier) == type.identifier)
            #expect(try resolver.resolve(TypeDisplayName.words(of: type.identifier)) == type.identifier)
        }
    }

    @Test func typoSuggestsTheCloseNames() {
        #expect(throws: TypeNameError(name: "hartRate", reason: .unknown(suggestions: ["heartRate"]))) {
            try resolver.resolve("hartRate")
        }
        let suggestions = resolver.suggestions(for: "steps")
        #expect(suggestions.contains("stepCount"), "\(suggestions)")
        #expect(resolver.suggestions(for: "HeartRat").first == "heartRate")
        #expect(resolver.suggestions(for: "oxygen").contains("oxygenSaturation"))
    }

    @Test func nonsenseGetsAnExampleInsteadOfSuggestions() {
        do {
            _ = try resolver.resolve("qqqqqqqqqqqq")
            Issue.record("resolved nonsense")
        } catch {
            #expect(error.reason == .unknown(suggestions: []))
            #expect(error.description.contains("HKQuantityTypeIdentifierHeartRate"))
        }
    }

    @Test func ambiguousShortNameListsTheIdentifiers() throws {
        let resolver = TypeNameResolver(identifiers: ["HKQuantityTypeIdentifierFoo", "HKCategoryTypeIdentifierFoo"])
        #expect(throws: TypeNameError(name: "foo", reason: .ambiguous(candidates: [
            "HKQuantityTypeIdentifierFoo", "HKCategoryTypeIdentifierFoo",
        ]))) { try resolver.resolve("foo") }
        #expect(try resolver.resolve("HKCategoryTypeIdentifierFoo") == "HKCategoryTypeIdentifierFoo")
    }

    @Test func completionNamesAreLowerCamelUnlessAcronym() {
        let names = resolver.completionNames
        #expect(names.contains("heartRate"))
        #expect(names.contains("VO2Max"))
        #expect(names.contains("UVExposure"))
        #expect(names.count == HKObjectType.allTypes.count)
    }
}
