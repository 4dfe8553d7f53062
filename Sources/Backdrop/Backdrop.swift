// The library's one module for its users: every layer of Package.swift, re-exported, so that `import Backdrop`
// gives the whole public API. The layers themselves import only those below them (docs/layout.md).
@_exported import BackdropCalibration
@_exported import BackdropGolden
@_exported import BackdropImageIO
@_exported import BackdropRendering
@_exported import BackdropReports
@_exported import BackdropScenes
