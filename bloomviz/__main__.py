from bloomviz.cli import main

raise SystemExit(main())
