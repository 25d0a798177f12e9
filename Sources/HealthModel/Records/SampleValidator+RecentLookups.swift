extension SampleValidator {
    /// What consecutive records of a save or an import share, looked up once: the sample type of
    /// the last type identifier checked and the unit plan of the last (type, unit) pair.
    ///
    /// Why: a batch is nearly always one type in one unit, and looking both up for every record
    /// hashed the identifier into the type registry and both strings, under a lock, into the plan
    /// cache — per sample, in the SDK's check and again in healthd's (issue 17). Equal strings
    /// name the same registered type and the same plan, so what this answers is what the lookups
    /// answer; a different string is looked up as before. One per batch or per import stream,
    /// never shared between threads (it is a value).
    public struct RecentLookups {
        private var lastType: (identifier: String, type: HKSampleType)?
        private var lastPlan: (type: String, unit: String, plan: QuantityUnitPlan)?

        public init() {}

        /// The registered sample type named `identifier`, nil for an unknown one or a type that
        /// is not a sample type.
        mutating func sampleType(_ identifier: String) -> HKSampleType? {
            if let lastType, lastType.identifier == identifier { return lastType.type }
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKSampleType else { return nil }
            lastType = (identifier, type)
            return type
        }

        /// `QuantityUnitPlan.cached(type, unitString:)`, with its errors.
        mutating func plan(_ type: HKQuantityType, unitString: String) throws(HKError) -> QuantityUnitPlan {
            if let lastPlan, lastPlan.type == type.identifier, lastPlan.unit == unitString { return lastPlan.plan }
            let plan = try QuantityUnitPlan.cached(type, unitString: unitString)
            lastPlan = (type.identifier, unitString, plan)
            return plan
        }
    }
}
