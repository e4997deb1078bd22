/// Every subcommand, in the order `lodestone --help` lists them.
var allCommands: [any Command.Type] {[
    WatchCommand.self,
    ServeCommand.self,
    DetectCommand.self,
    CalibrateCommand.self,
    DeclinationCommand.self,
    GeodCommand.self,
    TrackCommand.self,
    WhereCommand.self,
    PlacesCommand.self,
    GotoCommand.self,
    RegionsCommand.self,
    LogCommand.self,
    AnalyzeCommand.self,
    HeadingCommand.self,
    CompletionCommand.self,
]}
