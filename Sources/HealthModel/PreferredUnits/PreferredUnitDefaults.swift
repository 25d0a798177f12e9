/// The unit `preferredUnits(for:)` answers when the user has not chosen one for a type: the
/// table below for the app's measurement system, else the type's canonical unit.
///
/// | types | metric | US | UK |
/// | --- | --- | --- | --- |
/// | body mass, lean body mass | kg | lb | st |
/// | height, waist, step length, stride length | cm | in | in |
/// | walking/running, cycling, wheelchair, skiing, paddling, rowing, skating distance, six-minute walk | km | mi | mi |
/// | swimming distance | m | yd | m |
/// | underwater depth | m | ft | m |
/// | walking, running, cycling, rowing, paddling, skiing speed | km/hr | mi/hr | mi/hr |
/// | body, basal body, sleeping wrist and water temperature | degC | degF | degC |
/// | blood glucose | mmol<180.1558800000541>/L | mg/dL | mmol<180.1558800000541>/L |
/// | dietary water | mL | fl_oz_us | mL |
/// | heart rate, respiratory rate (every system) | count/min | count/min | count/min |
///
/// Energy stays in kcal and pressure in mmHg everywhere (their canonical units), like every
/// other type not listed.
public enum PreferredUnitDefaults {
    public static func unit(for type: HKQuantityType, in system: MeasurementSystem) -> HKUnit {
        let identifier = HKQuantityTypeIdentifier(rawValue: type.identifier)
        guard let row = table.first(where: { $0.types.contains(identifier) }) else { return type.canonicalUnit }
        let text = switch system {
        case .metric: row.metric
        case .us: row.us
        case .uk: row.uk
        }
        return HKUnit(from: text)
    }

    private struct Row {
        let types: [HKQuantityTypeIdentifier]
        let metric: String
        let us: String
        let uk: String
    }

    private static let table: [Row] = [
        Row(types: [.bodyMass, .leanBodyMass], metric: "kg", us: "lb", uk: "st"),
        Row(types: [.height, .waistCircumference, .walkingStepLength, .runningStrideLength], metric: "cm", us: "in", uk: "in"),
        Row(types: [.distanceWalkingRunning, .distanceCycling, .distanceWheelchair, .distanceCrossCountrySkiing,
                    .distanceDownhillSnowSports, .distancePaddleSports, .distanceRowing, .distanceSkatingSports,
                    .sixMinuteWalkTestDistance],
            metric: "km", us: "mi", uk: "mi"),
        Row(types: [.distanceSwimming], metric: "m", us: "yd", uk: "m"),
        Row(types: [.underwaterDepth], metric: "m", us: "ft", uk: "m"),
        Row(types: [.walkingSpeed, .runningSpeed, .cyclingSpeed, .rowingSpeed, .paddleSportsSpeed, .crossCountrySkiingSpeed],
            metric: "km/hr", us: "mi/hr", uk: "mi/hr"),
        Row(types: [.bodyTemperature, .basalBodyTemperature, .appleSleepingWristTemperature, .waterTemperature],
            metric: "degC", us: "degF", uk: "degC"),
        Row(types: [.bloodGlucose], metric: "mmol<180.1558800000541>/L", us: "mg/dL", uk: "mmol<180.1558800000541>/L"),
        Row(types: [.dietaryWater], metric: "mL", us: "fl_oz_us", uk: "mL"),
        Row(types: [.heartRate, .respiratoryRate], metric: "count/min", us: "count/min", uk: "count/min"),
    ]
}
