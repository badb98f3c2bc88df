import BadgeCore

/// Shell completion scripts for `badgectl`, made from `CommandSpec` so that they always offer
/// the commands and options the parser accepts (`badgectl --generate-completion <shell>`).
///
/// Channel arguments complete to the channels `badgectl list` prints, when the daemon runs.
enum CompletionScript {
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: return bash()
    case .zsh: return zsh()
    case .fish: return fish()
    }
  }

  // MARK: - What each command's arguments are

  /// What a command's positional arguments complete to.
  enum Arguments {
    case none
    /// A channel first, then nothing (incr's `<n>` is not completed).
    case channel
    /// Channels, any number (watch).
    case channels
    /// A channel, then `key=` settings (configure).
    case channelThenSettings
    /// Command names (help).
    case commands
    /// One of the command's own words first (dnd: on, off, toggle, status).
    case words(String)
  }

  static func arguments(of spec: CommandSpec) -> Arguments {
    switch (spec.arguments.first?.kind, spec.arguments.dropFirst().first?.kind) {
    case (.command, _): return .commands
    case (.channelOrGlob, _): return .channels
    case (.channel, .setting): return .channelThenSettings
    case (.channel, _): return .channel
    case (.word, _): return .words(spec.arguments[0].name.split(separator: "|").joined(separator: " "))
    default: return .none
    }
  }

  static var commandNames: String { CommandSpec.all.map(\.name).joined(separator: " ") }
  static var settingWords: String { SettingKey.allCases.map { $0.rawValue + "=" }.joined(separator: " ") }
  static var globalWords: String {
    CommandSpec.globalOptions.flatMap { [$0.short, $0.name].compactMap { $0 } }.joined(separator: " ")
  }

  /// The options that take a value, as a shell `case` pattern: `--socket|--format`.
  static var valueOptionPattern: String {
    var names: [String] = []
    for option in CommandSpec.globalOptions + CommandSpec.all.flatMap(\.options) where option.valueName != nil {
      if !names.contains(option.name) { names.append(option.name) }
    }
    return names.joined(separator: "|")
  }

  private static func optionWords(_ spec: CommandSpec) -> String {
    (spec.options + CommandSpec.globalOptions).flatMap { [$0.short, $0.name].compactMap { $0 } }
      .joined(separator: " ")
  }

  /// Options that take a value from a fixed set, with the set.
  private static var choiceOptions: [(name: String, choices: [String])] {
    var seen = Set<String>()
    var result: [(String, [String])] = []
    for option in CommandSpec.all.flatMap(\.options) where !option.choices.isEmpty && seen.insert(option.name).inserted
    {
      result.append((option.name, option.choices))
    }
    return result
  }

  /// `text` with each character in `replacements` replaced (no Foundation in badgectl).
  private static func escaping(_ text: String, _ replacements: [Character: String]) -> String {
    var out = ""
    for character in text { out += replacements[character] ?? String(character) }
    return out
  }

  // MARK: - bash

  static func bash() -> String {
    var cases = ""
    for spec in CommandSpec.all {
      let arguments: String
      switch Self.arguments(of: spec) {
      case .none: arguments = ""
      case .channel: arguments = "(( position == 1 )) && words=$(_badgectl_channels)"
      case .channels: arguments = "words=$(_badgectl_channels)"
      case .channelThenSettings:
        arguments =
          "if (( position == 1 )); then words=$(_badgectl_channels); else words=\"\(settingWords)\"; compopt -o "
          + "nospace 2>/dev/null; fi"
      case .commands: arguments = "(( position == 1 )) && words=\"\(commandNames)\""
      case .words(let words): arguments = "(( position == 1 )) && words=\"\(words)\""
      }
      cases += "    \(spec.name)) options=\"\(optionWords(spec))\"; \(arguments.isEmpty ? ":" : arguments) ;;\n"
    }
    var valueCases = "    --socket) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
    for (name, choices) in choiceOptions {
      valueCases +=
        "    \(name)) COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
    }
    return """
      # bash completion for badgectl; made by `badgectl --generate-completion bash`.

      _badgectl_channels() {
        badgectl "${socket[@]}" list 2>/dev/null | cut -d' ' -f1
      }

      _badgectl() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        local i command="" at=0 socket=()
        for ((i = 1; i < COMP_CWORD; i++)); do
          case ${COMP_WORDS[i]} in
            --socket) socket=(--socket "${COMP_WORDS[i+1]}"); ((i++)) ;;
            --socket=*) socket=("${COMP_WORDS[i]}") ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; at=$i; break ;;
          esac
        done
        case $prev in
      \(valueCases)  esac
        if [[ -z $command ]]; then
          if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "\(globalWords) --version" -- "$cur"))
          else
            COMPREPLY=($(compgen -W "\(commandNames)" -- "$cur"))
          fi
          return
        fi
        local position=0 options="" words=""
        for ((i = at + 1; i < COMP_CWORD; i++)); do
          case ${COMP_WORDS[i]} in
            \(valueOptionPattern)) ((i++)) ;;
            -*) ;;
            *) ((position++)) ;;
          esac
        done
        ((position++))
        case $command in
      \(cases)  esac
        if [[ $cur == -* ]]; then
          COMPREPLY=($(compgen -W "$options" -- "$cur"))
        else
          COMPREPLY=($(compgen -W "$words" -- "$cur"))
        fi
      }

      complete -F _badgectl badgectl

      """
  }

  // MARK: - zsh

  static func zsh() -> String {
    func quoted(_ text: String) -> String { "'" + escaping(text, ["'": "'\\''"]) + "'" }
    let described = CommandSpec.all.map { "    " + quoted("\($0.name):\($0.abstract)") }.joined(separator: "\n")
    var cases = ""
    var optionCases = ""
    for spec in CommandSpec.all {
      optionCases += "    \(spec.name)) compadd -- \(optionWords(spec)) ;;\n"
      let arguments: String
      switch Self.arguments(of: spec) {
      case .none: arguments = ":"
      case .channel: arguments = "(( position == 1 )) && _badgectl_channels"
      case .channels: arguments = "_badgectl_channels"
      case .channelThenSettings:
        arguments = "if (( position == 1 )); then _badgectl_channels; else compadd -S '' -- \(settingWords); fi"
      case .commands: arguments = "(( position == 1 )) && _describe -t commands 'badgectl command' commands"
      case .words(let words): arguments = "(( position == 1 )) && compadd -- \(words)"
      }
      cases += "    \(spec.name)) \(arguments) ;;\n"
    }
    var valueCases = "    --socket) _files; return ;;\n"
    for (name, choices) in choiceOptions {
      valueCases += "    \(name)) compadd -- \(choices.joined(separator: " ")); return ;;\n"
    }
    return """
      #compdef badgectl
      # zsh completion for badgectl; made by `badgectl --generate-completion zsh`.

      _badgectl_channels() {
        local -a channels
        channels=(${${(f)"$(badgectl $socket list 2>/dev/null)"}%% *})
        compadd -- $channels
      }

      _badgectl() {
        local -a commands socket
        commands=(
      \(described)
        )
        local i command="" at=0 position=0
        for ((i = 2; i < CURRENT; i++)); do
          case ${words[i]} in
            --socket) socket=(--socket ${words[i+1]}); ((i++)) ;;
            --socket=*) socket=(${words[i]}) ;;
            -*) ;;
            *) command=${words[i]}; at=$i; break ;;
          esac
        done
        case ${words[CURRENT-1]} in
      \(valueCases)  esac
        if [[ -z $command ]]; then
          if [[ ${words[CURRENT]} == -* ]]; then
            compadd -- \(globalWords) --version
          else
            _describe -t commands 'badgectl command' commands
          fi
          return
        fi
        for ((i = at + 1; i < CURRENT; i++)); do
          case ${words[i]} in
            \(valueOptionPattern)) ((i++)) ;;
            -*) ;;
            *) ((position++)) ;;
          esac
        done
        ((position++))
        if [[ ${words[CURRENT]} == -* ]]; then
          case $command in
      \(optionCases)    esac
          return
        fi
        case $command in
      \(cases)  esac
      }

      _badgectl "$@"

      """
  }

  // MARK: - fish

  static func fish() -> String {
    func quoted(_ text: String) -> String { "'" + escaping(text, ["\\": "\\\\", "'": "\\'"]) + "'" }
    var lines = [
      "# fish completion for badgectl; made by `badgectl --generate-completion fish`.",
      "",
      "# The command word of the line being completed, if any.",
      "function __badgectl_command",
      "    set -l words (commandline -opc)",
      "    set -e words[1]",
      "    while set -q words[1]",
      "        switch $words[1]",
      "            case --socket",
      "                set -e words[1]",
      "            case '-*'",
      "            case '*'",
      "                echo $words[1]",
      "                return 0",
      "        end",
      "        set -e words[1]",
      "    end",
      "    return 1",
      "end",
      "",
      "function __badgectl_channels",
      "    set -l socket (commandline -opc | string match -r -- '^--socket=.*')",
      "    badgectl $socket list 2>/dev/null | string replace -r ' .*' ''",
      "end",
      "",
      "complete -c badgectl -f",
      "complete -c badgectl -n 'not __badgectl_command' -l version -d 'Show the version.'",
    ]
    for option in CommandSpec.globalOptions {
      var line = "complete -c badgectl"
      if let short = option.short { line += " -s \(short.dropFirst())" }
      line += " -l \(option.name.dropFirst(2))"
      if option.valueName != nil { line += " -r -F" }
      lines.append(line + " -d \(quoted(option.help))")
    }
    for spec in CommandSpec.all {
      lines.append("complete -c badgectl -n 'not __badgectl_command' -a \(spec.name) -d \(quoted(spec.abstract))")
    }
    for spec in CommandSpec.all {
      let when = "-n 'contains -- (__badgectl_command) \(spec.name)'"
      for option in spec.options {
        var line = "complete -c badgectl \(when) -l \(option.name.dropFirst(2))"
        if !option.choices.isEmpty { line += " -x -a \(quoted(option.choices.joined(separator: " ")))" }
        lines.append(line + " -d \(quoted(option.help))")
      }
      switch arguments(of: spec) {
      case .none: break
      case .channel, .channels: lines.append("complete -c badgectl \(when) -a '(__badgectl_channels)'")
      case .channelThenSettings:
        lines.append("complete -c badgectl \(when) -a '(__badgectl_channels)'")
        lines.append("complete -c badgectl \(when) -a \(quoted(settingWords))")
      case .commands: lines.append("complete -c badgectl \(when) -a \(quoted(commandNames))")
      case .words(let words): lines.append("complete -c badgectl \(when) -a \(quoted(words))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
