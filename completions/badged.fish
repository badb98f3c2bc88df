# fish completion for badged, the notification badge counting daemon.
# (badgectl's is made by `badgectl --generate-completion fish`.)

complete -c badged -f
complete -c badged -l socket -r -F -d 'The socket to serve'
complete -c badged -l config -r -F -d 'The config file'
complete -c badged -l state-dir -x -a '(__fish_complete_directories)' -d 'Where counts are persisted'
complete -c badged -l log-level -x -a 'emerg alert crit err warning notice info debug' -d 'The least severe messages logged'
complete -c badged -l foreground -d 'Stay in the foreground (always)'
complete -c badged -l version -d 'Show the version'
complete -c badged -s h -l help -d 'Show help information'
