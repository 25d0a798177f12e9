extension HKSamplePredicate where Sample == HKCorrelation {
    /// Correlations of `type`, for `HKSampleQueryDescriptor` (each comes back with its samples).
    public static func correlation(type: HKCorrelationType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCorrelation> {
        HKSamplePredicate(sampleType: type, nsPredicate: predicate)
    }
}
