/// Method names in gRPC form. Each service's list is the complete set its socket serves.
public enum HealthStoreMethod: String, CaseIterable, Sendable {
    case getRequestStatus = "/openhealth.v1.HealthStore/GetRequestStatus"
    case requestAuthorization = "/openhealth.v1.HealthStore/RequestAuthorization"
    case authorizationStatus = "/openhealth.v1.HealthStore/AuthorizationStatus"
    case save = "/openhealth.v1.HealthStore/Save"
    case querySamples = "/openhealth.v1.HealthStore/QuerySamples"
    case queryAnchored = "/openhealth.v1.HealthStore/QueryAnchored"
    case observeChanges = "/openhealth.v1.HealthStore/ObserveChanges"
    case acknowledgeObserverUpdate = "/openhealth.v1.HealthStore/AcknowledgeObserverUpdate"
    case querySources = "/openhealth.v1.HealthStore/QuerySources"
    case addSamplesToWorkout = "/openhealth.v1.HealthStore/AddSamplesToWorkout"
    case insertRouteData = "/openhealth.v1.HealthStore/InsertRouteData"
    case finishRoute = "/openhealth.v1.HealthStore/FinishRoute"
    case queryRouteData = "/openhealth.v1.HealthStore/QueryRouteData"
    case deleteObjects = "/openhealth.v1.HealthStore/DeleteObjects"
    case deleteMatching = "/openhealth.v1.HealthStore/DeleteMatching"
    case queryStatistics = "/openhealth.v1.HealthStore/QueryStatistics"
    case queryStatisticsCollection = "/openhealth.v1.HealthStore/QueryStatisticsCollection"
    case getCharacteristic = "/openhealth.v1.HealthStore/GetCharacteristic"
    case queryCorrelations = "/openhealth.v1.HealthStore/QueryCorrelations"
    case preferredUnits = "/openhealth.v1.HealthStore/PreferredUnits"
    case watchStatisticsCollection = "/openhealth.v1.HealthStore/WatchStatisticsCollection"
}

public enum HealthManagerMethod: String, CaseIterable, Sendable {
    case status = "/openhealth.v1.HealthManager/Status"
    case installApp = "/openhealth.v1.HealthManager/InstallApp"
    case listApps = "/openhealth.v1.HealthManager/ListApps"
    case listRequests = "/openhealth.v1.HealthManager/ListRequests"
    case watchRequests = "/openhealth.v1.HealthManager/WatchRequests"
    case answerRequest = "/openhealth.v1.HealthManager/AnswerRequest"
    case setGrants = "/openhealth.v1.HealthManager/SetGrants"
    case listGrants = "/openhealth.v1.HealthManager/ListGrants"
    case querySamples = "/openhealth.v1.HealthManager/QuerySamples"
    case launchBind = "/openhealth.v1.HealthManager/LaunchBind"
    case getKeyStatus = "/openhealth.v1.HealthManager/GetKeyStatus"
    case rotateKey = "/openhealth.v1.HealthManager/RotateKey"
    case setPasscode = "/openhealth.v1.HealthManager/SetPasscode"
    case changePasscode = "/openhealth.v1.HealthManager/ChangePasscode"
    case removePasscode = "/openhealth.v1.HealthManager/RemovePasscode"
    case listAccessLog = "/openhealth.v1.HealthManager/ListAccessLog"
    case verifyAccessLog = "/openhealth.v1.HealthManager/VerifyAccessLog"
    case listSources = "/openhealth.v1.HealthManager/ListSources"
    case setSourcePriority = "/openhealth.v1.HealthManager/SetSourcePriority"
    case listCharacteristics = "/openhealth.v1.HealthManager/ListCharacteristics"
    case setCharacteristic = "/openhealth.v1.HealthManager/SetCharacteristic"
    case listUnitPreferences = "/openhealth.v1.HealthManager/ListUnitPreferences"
    case setUnitPreference = "/openhealth.v1.HealthManager/SetUnitPreference"
}

/// Where the SDK finds its connection: health-sandbox puts the inherited descriptor's number here.
public enum LaunchEnvironment {
    public static let socketDescriptorVariable = "OPENHEALTH_SOCKET_FD"
    /// For apps started without the launcher: the app socket's path (else the default).
    public static let appSocketPathVariable = "OPENHEALTH_APP_SOCKET"
    public static let adminSocketPathVariable = "OPENHEALTH_ADMIN_SOCKET"
}
