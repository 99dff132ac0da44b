import Testing

@testable import FerryTypedPath
