# bash completion for badged, the notification badge counting daemon.
# (badgectl's is made by `badgectl --generate-completion bash`.)

_badged() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    --socket|--config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --state-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --log-level) COMPREPLY=($(compgen -W "emerg alert crit err warning notice info debug" -- "$cur")); return ;;
  esac
  COMPREPLY=($(compgen -W "--socket --config --state-dir --log-level --foreground --version -h --help" -- "$cur"))
}

complete -F _badged badged
