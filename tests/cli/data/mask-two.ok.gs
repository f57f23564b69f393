##gnnstream 1
@graph id=3 nodes=6 edges=9 k=2
0	1
1	2
2	3
3	4
4	5
5	0
0	3
1	4
2	5
@tensor id=3 name=cluster rows=6 cols=1 type=i32
0
0
0
1
1
1
@label id=3 name=class value=4
@graph id=7 nodes=5 edges=6
0	1
1	2
2	3
3	4
4	0
0	2
@end records=4
