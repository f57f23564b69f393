Creator "gnnpipe tests/cli/formats.test.sh: a directed GML graph, hand-written"
graph
[
  directed 1
  node [ id 10 label "Myriel" age 40 group "clergy" ]
  node [ id 20 label "Mme Thénardier" age 35.5 group "inn" ]
  node [ id 30 label "Valjean" age 45 group "convict" ]
  node [ id 40 label "Cosette" age 8 group "inn" ]
  node [ id 50 label "Isolé" age 70 group "alone" ]
  edge [ source 10 target 30 weight 2 ]
  edge [ source 30 target 10 ]
  edge [ source 30 target 40 ]
  edge [ source 20 target 40 ]
  edge [ source 40 target 40 ]
]
