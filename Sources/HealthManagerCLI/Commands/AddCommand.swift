import ArgumentParser
import Foundation
import HealthModel

/// `healthctl add TYPE VALUE [UNIT]`: the user's own entry, as typed into Apple's Health app.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a sample of your own (a weight, a blood glucose reading, a night's sleep).",
        discussion: """
            The sample is checked exactly as an app's save: the unit must measure the type and \
            the value must be in the type's range. It is stored under your own source, which apps \
            see as "Health" (as entries typed into Apple's Health app), marked as entered by you \
            (HKWasUserEntered), and apps with read permission for the type see it.

            A quantity needs a value and a HealthKit unit; a category sample a value by number or \
            name (sleep: inBed, asleepCore, awake, …). Dates are as for `healthctl samples`; \
            --start defaults to now and --end to --start.

            Examples:
              healthctl add bodyMass 72.4 kg
              healthctl add bloodGlucose 5.4 mmol<180.15588>/L --start 2024-05-01T07:30
              healthctl add sleepAnalysis asleepCore --start 2024-05-01T23:00 --end 2024-05-02T06:30
              healthctl add heartRate 62 count/min --metadata HKHeartRateMotionContext=1 --metadata note=resting
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String

    @Argument(help: ArgumentHelp("The value: a number, or for a category its value's name.", valueName: "value"))
    var value: String

    @Argument(help: ArgumentHelp("The unit of a quantity (kg, lb, count/min, mmol<180.15588>/L, degC).", valueName: "unit"))
    var unit: String?

    @Option(help: ArgumentHelp("When it started (default: now).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var start: DateArgument?

    @Option(help: ArgumentHelp("When it ended (default: its start).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var end: DateArgument?

    @Option(name: .customLong("metadata"), help: ArgumentHelp("A metadata entry KEY=VALUE; repeat for more.", valueName: "key=value"))
    var metadataEntries: [String] = []

    func validate() throws {
        _ = try sample(now: Date(), timeZone: CommandIO.current.timeZone)
    }

    func run() async throws {
        let io = CommandIO.current
        let record = try sample(now: Date(), timeZone: io.timeZone)
        let client = try connection.connect()
        defer { client.close() }
        let uuids = try await client.addSamples([record])
        let formatter = SampleFormatter(displayUnit: nil, timeZone: io.timeZone)
        let (shown, shownUnit) = formatter.displayedValue(record.value, typeIdentifier: record.typeIdentifier)
        io.output.writeLine("Added \(TypeDisplayName.words(of: type)) \(shown)\(shownUnit.isEmpty ? "" : " " + shownUnit) at \(formatter.localTime(record.startDate)) (\(uuids.first?.uuidString.lowercased() ?? "no uuid")).")
    }

    /// The sample the arguments describe, or a `ValidationError` that says what to change.
    func sample(now: Date, timeZone: TimeZone) throws -> SampleRecord {
        let startDate = try start?.start(in: timeZone) ?? now
        // A day given to --end means the end of that day, as for `samples --to`.
        let endDate = try end.map { (argument) throws(DateArgumentError) in
            if case .day = argument.value { return try argument.end(in: timeZone) }
            return try argument.start(in: timeZone)
        } ?? startDate
        guard endDate >= startDate else { throw ValidationError("--end \(end?.text ?? "") is before --start \(start?.text ?? "now")") }
        var metadata: [String: MetadataValue] = [:]
        for entry in metadataEntries {
            let parsed = try MetadataArgument(parsing: entry, timeZone: timeZone)
            metadata[parsed.key] = parsed.value
        }
        let name = TypeDisplayName.words(of: type)
        let sampleValue: SampleRecord.Value
        switch HKObjectType.type(forIdentifier: type) {
        case let quantityType as HKQuantityType:
            guard let unit else {
                throw ValidationError("\(name) needs a unit after the value, such as \(PreferredUnitDefaults.unit(for: quantityType, in: .metric).unitString)")
            }
            let parsedUnit: HKUnit
            do {
                parsedUnit = try HKUnit.parse(unit)
            } catch {
                throw ValidationError("\(unit) is not a unit: \(error.message)")
            }
            guard quantityType.is(compatibleWith: parsedUnit) else {
                throw ValidationError("\(unit) does not measure \(name); use a unit like \(PreferredUnitDefaults.unit(for: quantityType, in: .metric).unitString)")
            }
            guard let number = Double(value), number.isFinite else { throw ValidationError("\(value) is not a number") }
            sampleValue = .quantity(number, unit: unit)
        case is HKCategoryType:
            guard unit == nil else { throw ValidationError("\(name) samples have no unit; give only the value") }
            sampleValue = .category(try Self.categoryValue(value, of: type))
        default:
            throw ValidationError("\(name) cannot be added here; add quantity or category samples (workouts come from apps or an import)")
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: startDate, endDate: endDate, value: sampleValue, metadata: metadata)
    }

    /// A number, a full name (`HKCategoryValueSleepAnalysisAsleepCore`) or the name's last part
    /// (`asleepCore`, `AsleepCore`).
    static func categoryValue(_ text: String, of type: String) throws -> Int {
        if let raw = Int(text) { return raw }
        let stem = "HKCategoryValue" + type.replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
        let short = text.prefix(1).uppercased() + text.dropFirst()
        if let raw = HKObjCEnumNames.categoryValues[text] ?? HKObjCEnumNames.categoryValues[stem + short] { return raw }
        let names = HKObjCEnumNames.categoryValues.keys.filter { $0.hasPrefix(stem) }.map { name in
            let last = name.dropFirst(stem.count)
            return last.prefix(1).lowercased() + last.dropFirst()
        }.sorted()
        let listed = names.isEmpty ? "a number" : names.joined(separator: ", ")
        throw ValidationError("\(text) is not a value of \(TypeDisplayName.words(of: type)); use \(listed)")
    }
}
