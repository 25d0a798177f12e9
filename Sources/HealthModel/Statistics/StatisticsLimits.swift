/// Bounds on one statistics computation, so a request cannot make the broker allocate without
/// limit. They depend only on the request and on the data the caller may see.
public enum StatisticsLimits {
    /// Intervals one collection computes: a year of minutes (525,600) fits.
    public static let maxIntervals = 600_000
    /// Statistics per streamed collection message.
    public static let statisticsPerBatch = 500
}
