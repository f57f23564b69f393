##gnnstream 1
@pg id=0badf00d prog="a b" version=0.1.0 seed=- cmd="x \"q\" \\ \n\t"
@label id=3 name=class value=-7 pg=0badf00d note="two words"
@graph id=3 nodes=3 edges=2 labels=f64 pg=0badf00d
0 1 0.5
1 2 -1e-3
@tensor id=3 name=x rows=2 cols=2 type=i64 columns=a,b
1 -2
3 4
@end
##gnnstream 1
@pairs id=3 name=p count=1 labels=i32
0 2 1
@end records=1
